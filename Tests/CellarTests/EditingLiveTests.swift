import Cellar
import Foundation
import HTTPTestSupport
import Testing

/// Editing mode with JavaScript, over sockets on the showcase's `/to-drink`: a change sent with
/// `Prefer: return=minimal` is a 204 carrying its sequence, and the page changes only through the
/// event stream's batch, whose rows (an editing window's) carry their editing controls.
@Suite struct EditingLiveTests {
    static let script = EditingTests.browser + [("Prefer", "return=minimal")]

    static func nextBatch(_ client: EventStreamClient) throws -> (id: UInt64, streams: [TurboStream]) {
        let event = try LiveListTests.nextBatch(client)
        return (UInt64(event.lastEventID) ?? 0, try TurboStream.parse(event.data))
    }

    @Test func aScriptsChangeIs204WithItsSequenceAndTheBatchCarriesTheControls() throws {
        let server = try EditingTests.server()
        let editing = try EventStreamClient(port: server.port, target: "/to-drink?editing=1&_edit=1")
        let plain = try EventStreamClient(port: server.port, target: "/to-drink")
        #expect(editing.status == 200)
        let greeting = try #require(try editing.nextEvent(timeout: .seconds(30)))
        _ = try plain.nextEvent(timeout: .seconds(30))

        // A delete: 204, no body, the sequence and the Undo; the batch that shows it comes after.
        let version = try EditingTests.version(of: "2", in: server)
        let deleted = try EditingTests.post(server, "_do=delete&_row=2&_version=\(version)", headers: Self.script)
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        #expect(deleted.headers["Preference-Applied"] == "return=minimal")
        let sequence = try #require(deleted.headers["Cellar-Change-Sequence"].flatMap { UInt64($0) })
        #expect(sequence >= UInt64(greeting.lastEventID) ?? 0)
        let token = try #require(deleted.headers["Cellar-Undo"])
        #expect(token.hasPrefix("u1."))
        let removal = try Self.nextBatch(editing)
        #expect(removal.id >= sequence)
        #expect(removal.streams.map(\.summary).contains("remove row-2"))
        #expect(try Self.nextBatch(plain).streams.map(\.summary).contains("remove row-2"))

        // Undo from the live region: the row comes back with its controls, to the editing window only.
        let undone = try EditingTests.post(server, "_do=undo&_token=\(token)", headers: Self.script)
        #expect(undone.status == 204)
        let back = try Self.nextBatch(editing)
        #expect(back.id >= UInt64(try #require(undone.headers["Cellar-Change-Sequence"])) ?? .max)
        let row = try #require(back.streams.first { $0.template?.contains(#"id="row-2""#) == true }?.template)
        #expect(row.contains(#"<form class="editing-buttons" method="post" action="/to-drink/-/editing">"#))
        #expect(row.contains(#"<input type="hidden" name="_version" value="\#(version)">"#))
        // The list's query as the page has it, without what only the stream reads.
        #expect(row.contains(#"<input type="hidden" name="_return" value="">"#))
        #expect(!row.contains("editing-open"))
        let plainRow = try #require(try Self.nextBatch(plain).streams.first { $0.template?.contains(#"id="row-2""#) == true }?.template)
        #expect(!plainRow.contains("editing-buttons"))

        // A save: the row replaced with its new values and controls.
        let saved = try EditingTests.post(
            server, "_do=save&_row=2&_version=\(version)&wine=Musar+2018&vintage=2018&drunk=0", headers: Self.script)
        #expect(saved.status == 204)
        let replaced = try Self.nextBatch(editing)
        let savedRow = try #require(replaced.streams.first { $0.summary == "replace row-2" }?.template)
        #expect(savedRow.contains("Musar 2018"))
        #expect(savedRow.contains("editing-buttons"))

        // The stale version saved again by a script: 409, answered as the form (the row as it is
        // now beside the values sent), and nothing overwritten.
        let conflict = try EditingTests.post(server, "_do=save&_row=2&_version=\(version)&wine=Mine&vintage=&drunk=0", headers: Self.script)
        #expect(conflict.status == 409)
        #expect(conflict.headers["Cellar-Change-Sequence"] == nil)
        #expect(conflict.text.contains(#"<li class="cell editing-open" id="row-2">"#))
        #expect(conflict.text.contains("<dt>Wine</dt><dd>Musar 2018</dd>"))
        #expect(try EditingTests.wines(server)[1] == "Musar 2018")
    }

    @Test func theRowsFragmentInEditingModeKeepsTheControls() throws {
        let server = try EditingTests.server()
        let fragment = try server.get("/to-drink?editing=1&fragment=rows").text
        #expect(fragment.contains(#"<form class="editing-buttons""#))
        #expect(!fragment.contains("<html"))
        #expect(!(try server.get("/to-drink?fragment=rows").text.contains("editing-buttons")))
    }
}
