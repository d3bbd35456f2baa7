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

    @Test func aRowDraggedBesideAnotherMovesThereAndComesBackAsOneBatch() throws {
        let server = try EditingTests.server()
        let editing = try EventStreamClient(port: server.port, target: "/to-drink?editing=1")
        _ = try editing.nextEvent(timeout: .seconds(30))
        #expect(try EditingTests.wines(server) == ["Domaine Tempier Bandol 2019", "Château Musar 2017", "Vietti Barolo Castiglione 2018"])
        // The first row dropped after the last: it goes to the end.
        let first = try EditingTests.post(
            server, "_do=move&_row=1&_after=3&_version=\(try EditingTests.version(of: "1", in: server))", headers: Self.script)
        #expect(first.status == 204)
        #expect(try EditingTests.wines(server) == ["Château Musar 2017", "Vietti Barolo Castiglione 2018", "Domaine Tempier Bandol 2019"])
        let moved = try Self.nextBatch(editing)
        #expect(moved.streams.map(\.summary).contains("remove row-1"))
        let back = try #require(moved.streams.first { $0.template?.contains(#"id="row-1""#) == true })
        #expect(back.summary == "after row-3")
        #expect(back.template?.contains(#"<span class="editing-drag" aria-hidden="true" title="Drag to move">≡</span>"#) == true)
        // The last dropped before the first: it goes to the start.
        let last = try EditingTests.post(
            server, "_do=move&_row=1&_before=2&_version=\(try EditingTests.version(of: "1", in: server))", headers: Self.script)
        #expect(last.status == 204)
        #expect(try EditingTests.wines(server) == ["Domaine Tempier Bandol 2019", "Château Musar 2017", "Vietti Barolo Castiglione 2018"])
        // Dropped beside itself: nothing to do, and no batch.
        let same = try EditingTests.post(
            server, "_do=move&_row=2&_after=2&_version=\(try EditingTests.version(of: "2", in: server))", headers: Self.script)
        #expect(same.status == 204)
        // Beside a row that has gone: 409, nothing moved; without a place: 400.
        let gone = try EditingTests.post(
            server, "_do=move&_row=2&_after=nope&_version=\(try EditingTests.version(of: "2", in: server))", headers: Self.script)
        #expect(gone.status == 409)
        #expect(gone.text.contains("no longer in the list: nothing was moved"))
        let nowhere = try EditingTests.post(server, "_do=move&_row=2&_version=\(try EditingTests.version(of: "2", in: server))")
        #expect(nowhere.status == 400)
        #expect(try EditingTests.wines(server) == ["Domaine Tempier Bandol 2019", "Château Musar 2017", "Vietti Barolo Castiglione 2018"])
        // A stale version is refused like any change.
        let stale = try EditingTests.post(server, "_do=move&_row=2&_after=3&_version=0000", headers: Self.script)
        #expect(stale.status == 409)
    }
}
