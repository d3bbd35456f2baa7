import ByteWriters
import Foundation
import HTTPTestSupport
import Showcase
import TableKit
import Testing

@testable import Cellar

/// The JSON write API's batches, upserts, section choice and encoded ids on an app's own lists,
/// over sockets: the showcase's `/to-drink` and a list of labels whose ids hold `/`, `,`, `~` and
/// a space, in two sections, holding at most eight rows. A refused batch leaves the list as it was;
/// one stopped midway by its store says which rows went in.
@Suite struct ListWriteBatchTests {
    struct Label: Codable, Sendable, Identifiable {
        var id: String
        var text: String
    }

    struct LabelValues: Decodable {
        let text: String
    }

    struct LabelForm: FormController {
        var label: Label?
        var sections: [FormSection] {
            [FormSection(fields: [.text("text", label: "Text", isRequired: true, value: label?.text ?? "", maxLength: 200)])]
        }
    }

    struct LabelsController: EditableItemsController {
        let snapshot: EditableItems<Label>.Snapshot
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            DataCellProvider(for: indexPath, cell: PlainTextCell.self, data: item(at: indexPath).text)
        }
        func insertForm(inSection section: Int) -> (any FormController)? { LabelForm() }
        func editingForm(forRowAt indexPath: IndexPath) -> (any FormController)? { LabelForm(label: item(at: indexPath)) }
        func makeItem(id: String, context: EditingContext) throws -> Label {
            let text = try context.decode(LabelValues.self).text
            guard text != "forbidden" else { throw EditingError("That word stays off the list.", field: "text") }
            return Label(id: id, text: text)
        }
    }

    static let ids = ["a/b", "c,d", "e~f", "x y"]

    static func server() throws -> TestServer {
        try TestServer { app in
            try Showcase.install(in: app, peopleCount: 10, listbenchCount: 10, bigCount: 10)
            try app.register(PlainTextCell.self)
            let next = Locked(0)
            let store = EditableItems<Label>(
                sections: [
                    .init(title: "Today", items: ids.prefix(3).map { Label(id: $0, text: "label \($0)") }),
                    .init(title: "Later", items: [Label(id: ids[3], text: "label \(ids[3])")]),
                ], capacity: 8
            ) {
                next.withLock { next in
                    next += 1
                    return "new-\(next)"
                }
            }
            app.list("/labels", paging: .unpaged, hasDetail: false) { _ in LabelsController(snapshot: store.snapshot) }
            for action in [Action.insert, .update, .delete] { app.access.permissions.grant(action, on: "/labels", to: Permissions.anyone) }
        }
    }

    static func send(_ server: TestServer, _ target: String, _ body: String, headers: [(String, String)] = ListWriteAPITests.json) throws
        -> TestHTTPResponse
    {
        try ListWriteAPITests.send(server, target, body, headers: headers)
    }

    /// Each section's rows as (id, text), from the list's JSON.
    static func labels(_ server: TestServer) throws -> [[String]] {
        let json = try server.getAcceptingJSON("/labels.json").json()
        guard case .array(let sections)? = json["sections"] else { return [] }
        return sections.map { section in
            guard case .array(let rows)? = section["rows"] else { return [] }
            return rows.compactMap { row in
                if case .string(let id)? = row["id"], case .string(let text)? = row["item"]?["text"] { return "\(id)=\(text)" }
                return nil
            }
        }
    }

    static func rows(_ response: TestHTTPResponse) throws -> [JSONValue] {
        guard case .array(let rows)? = try response.json()["rows"] else { return [] }
        return rows
    }

    @Test func tildeAndPercentEncodedIdsNameTheirRow() throws {
        let server = try Self.server()
        // Datasette's encoding of each id, as its clients write a key.
        for id in Self.ids {
            let path = "/labels/\(TildeEncoding.encoded(id))/-/update"
            let response = try Self.send(server, path, #"{"update": {"text": "tilde \#(id)"}, "return": true}"#)
            #expect(response.status == 200, "\(path): \(response.text)")
            #expect(try response.json()["row"]?["id"] == .string(id))
        }
        // Percent-encoded, as Cellar's own links are: a `/` as %2F stays in its segment.
        for id in Self.ids {
            let encoded = try #require(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let response = try Self.send(server, "/labels/\(encoded)/-/update", #"{"update": {"text": "percent \#(id)"}}"#)
            #expect(response.status == 200, "\(encoded): \(response.text)")
        }
        #expect(try Self.labels(server) == [["a/b=percent a/b", "c,d=percent c,d", "e~f=percent e~f"], ["x y=percent x y"]])
        // Each id as the list's JSON prints it goes back into a path and names its row.
        let before = try Self.labels(server)
        #expect(try Self.send(server, "/labels/\(TildeEncoding.encoded("c,d"))/-/delete", "").status == 200)
        #expect(try Self.send(server, "/labels/a~2Fb/-/delete", "").status == 200)
        #expect(try Self.labels(server) == [[before[0][2]], before[1]])
        // A tilde-encoding that names no row is a 404, and so is hostile text.
        for path in ["e~2Ff", "e~7Ef~00", "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "1'%20OR%201=1;--", "x%00y", "~00"] {
            let response = try Self.send(server, "/labels/\(path)/-/delete", "")
            #expect(response.status == 404, "\(path): \(response.text)")
            #expect(try !ListWriteAPITests.errors(response).isEmpty)
        }
        #expect(try Self.labels(server) == [[before[0][2]], before[1]])
    }

    @Test func upsertChangesTheRowsItsIdsNameAndAddsTheOthers() throws {
        let server = try EditingTests.server()
        let before = try EditingTests.wines(server)
        let response = try Self.send(
            server, "/to-drink/-/upsert", #"{"rows": [{"id": 2, "drunk": true}, {"wine": "Chinon 2019", "vintage": 2019}], "return": true}"#)
        #expect(response.status == 200, "\(response.text)")
        let rows = try Self.rows(response)
        #expect(rows.count == 2)
        // Only the members sent change: the wine keeps its name.
        #expect(rows.first?["id"] == .integer(2))
        #expect(rows.first?["wine"] == .string(before[1]))
        #expect(rows.first?["drunk"] == .bool(true))
        #expect(rows.last?["wine"] == .string("Chinon 2019"))
        #expect(try EditingTests.wines(server) == before + ["Chinon 2019"])

        // An id that names no row refuses the whole upsert: the list gives ids, a script does not.
        let after = try EditingTests.wines(server)
        let unknown = try Self.send(server, "/to-drink/-/upsert", #"{"rows": [{"wine": "Lost"}, {"id": 999, "wine": "Lost too"}]}"#)
        #expect(unknown.status == 404)
        #expect(try ListWriteAPITests.errors(unknown).first?.hasPrefix("Row 1: ") == true)
        #expect(try EditingTests.wines(server) == after)
        for id in [#""<script>alert(1)</script>""#, #""1\u0000""#, #""1 OR 1=1""#, "1.5", "-1"] {
            let hostile = try Self.send(server, "/to-drink/-/upsert", #"{"row": {"id": \#(id), "wine": "Lost"}}"#)
            #expect(hostile.status == 404, "\(id): \(hostile.text)")
        }
        #expect(try Self.send(server, "/to-drink/-/upsert", #"{"row": {"id": [1], "wine": "Lost"}}"#).status == 400)
        #expect(try EditingTests.wines(server) == after)

        // If-Match as for an update: every row changed must be at one of its versions.
        let version = try EditingTests.version(of: "1", in: server)
        let stale = try Self.send(
            server, "/to-drink/-/upsert", #"{"row": {"id": "1", "wine": "Stale"}}"#, headers: ListWriteAPITests.json + [("If-Match", "\"0000\"")])
        #expect(stale.status == 412)
        #expect(try EditingTests.wines(server) == after)
        let fresh = try Self.send(
            server, "/to-drink/-/upsert", #"{"row": {"id": "1", "wine": "Fresh"}}"#,
            headers: ListWriteAPITests.json + [("If-Match", "\"\(version)\"")])
        #expect(fresh.status == 200, "\(fresh.text)")
        #expect(try EditingTests.wines(server).first == "Fresh")
    }

    @Test func upsertWithoutIfMatchIs428WhereRequiredOnlyWhenItChangesARow() throws {
        let server = try TestServer { app in
            try Showcase.install(in: app, peopleCount: 10, listbenchCount: 10, bigCount: 10)
            app.databaseRequiresIfMatch = true
        }
        #expect(try Self.send(server, "/to-drink/-/upsert", #"{"row": {"id": 1, "wine": "Blind"}}"#).status == 428)
        #expect(try !EditingTests.wines(server).contains("Blind"))
        #expect(try Self.send(server, "/to-drink/-/upsert", #"{"row": {"wine": "New"}}"#).status == 200)
    }

    @Test func aBatchIsCheckedWholeBeforeAnyRowGoesIn() throws {
        let server = try EditingTests.server()
        let before = try EditingTests.wines(server)
        let refused: [(String, Int, String)] = [
            (#"{"rows": [{"wine": "A"}, {"wine": "B", "vintage": "old"}, {"wine": "C"}]}"#, 422, "Row 1: vintage"),
            (#"{"rows": [{"wine": "A"}, {"wine": "B"}, {"wine": "a\u0000b"}]}"#, 422, "Row 2: wine"),
            (#"{"rows": [{"wine": "A"}, {"colour": "red"}]}"#, 400, "Row 1: "),
            (#"{"rows": [{"wine": "A"}, {"wine": ["B"]}]}"#, 400, "The field “wine” of “rows[1]”"),
            (#"{"rows": [{"wine": "A"}, "B"]}"#, 400, "The body’s “rows[1]”"),
            (#"{"rows": []}"#, 400, "“rows” is empty."),
            (#"{"rows": {"wine": "A"}}"#, 400, "The body’s “rows” is not an array"),
            (#"{"row": {"wine": "A"}, "rows": [{"wine": "B"}]}"#, 400, "both"),
            (#"{"rows": [{"wine": "A"}], "ignore": true}"#, 400, "“ignore”"),
            (#"{"row": {"id": 7, "wine": "A"}}"#, 400, "“id”"),
        ]
        for (body, status, message) in refused {
            let response = try Self.send(server, "/to-drink/-/insert", body)
            #expect(response.status == status, "\(body): \(response.text)")
            #expect(try ListWriteAPITests.errors(response).first?.contains(message) == true, "\(body): \(response.text)")
        }
        // Over the cap (100): a 400 before the rest is read; a megabyte, a 413.
        let many = "{\"rows\": [" + Array(repeating: #"{"wine": "Musar"}"#, count: 10_000).joined(separator: ",") + "]}"
        let tooMany = try Self.send(server, "/to-drink/-/insert", many)
        #expect(tooMany.status == 400)
        #expect(try ListWriteAPITests.errors(tooMany) == ["Too many rows: more than 100; at most 100 in one request."])
        let justOver = "{\"rows\": [" + Array(repeating: #"{"wine": "Musar"}"#, count: 101).joined(separator: ",") + "]}"
        #expect(try Self.send(server, "/to-drink/-/insert", justOver).status == 400)
        let megabyte = "{\"rows\": [{\"wine\": \"" + String(repeating: "x", count: 1 << 20) + "\"}]}"
        #expect(try Self.send(server, "/to-drink/-/insert", megabyte).status == 413)
        #expect(try EditingTests.wines(server) == before)

        // A good batch goes in whole, in order, and is returned as the list's JSON shows it.
        let good = try Self.send(
            server, "/to-drink/-/insert", #"{"rows": [{"wine": "<b>Bandol</b>"}, {"wine": "'; DROP TABLE x; --", "vintage": 2001}], "return": true}"#)
        #expect(good.status == 201, "\(good.text)")
        #expect(try Self.rows(good).map { $0["wine"] } == [.string("<b>Bandol</b>"), .string("'; DROP TABLE x; --")])
        #expect(try EditingTests.wines(server) == before + ["<b>Bandol</b>", "'; DROP TABLE x; --"])
    }

    @Test func aCommitRefusedMidwayAnswersWhichRowsWentIn() throws {
        let server = try Self.server()
        // The app's own check refuses the second row when it is made: the first stays, the third is not tried.
        let checked = try Self.send(
            server, "/labels/-/insert", #"{"rows": [{"text": "one"}, {"text": "forbidden"}, {"text": "three"}], "return": true}"#)
        #expect(checked.status == 422)
        #expect(
            try ListWriteAPITests.errors(checked) == [
                "Row 1: text: That word stays off the list.",
                "Row 0 was written (in “rows”, as the list now shows them), and none of the rows after.",
            ])
        #expect(try Self.rows(checked).map { $0["text"] } == [.string("one")])
        #expect(try Self.labels(server)[0].map { $0.split(separator: "=").last.map(String.init) } == ["label a/b", "label c,d", "label e~f", "one"])
        // The store holds at most eight rows (five now): the fourth of four does not fit.
        let full = try Self.send(server, "/labels/-/insert", #"{"rows": [{"text": "six"}, {"text": "seven"}, {"text": "eight"}, {"text": "nine"}]}"#)
        #expect(full.status == 422)
        #expect(try ListWriteAPITests.errors(full).first == "Row 3: This list holds at most 8 rows: delete one first.")
        #expect(try Self.rows(full).count == 3)
        #expect(try Self.labels(server).joined().count == 8)
        #expect(try !Self.labels(server).joined().contains { $0.hasSuffix("=nine") })
    }

    @Test func anInsertGoesToTheSectionItsBodyNames() throws {
        let server = try Self.server()
        for (index, section) in ["1", "\"1\"", "\"Later\""].enumerated() {
            let response = try Self.send(server, "/labels/-/insert", #"{"row": {"text": "later \#(index)"}, "section": \#(section)}"#)
            #expect(response.status == 201, "\(section): \(response.text)")
        }
        #expect(try Self.send(server, "/labels/-/insert", #"{"row": {"text": "today"}, "section": "Today"}"#).status == 201)
        let labels = try Self.labels(server)
        #expect(labels[1].map { $0.split(separator: "=").last.map(String.init) } == ["label x y", "later 0", "later 1", "later 2"])
        #expect(labels[0].last?.hasSuffix("=today") == true)
        for section in ["2", "-1", "\"Nowhere\"", "true", "1.5", "[1]"] {
            let response = try Self.send(server, "/labels/-/insert", #"{"row": {"text": "lost"}, "section": \#(section)}"#)
            #expect(response.status == 400, "\(section): \(response.text)")
            if section == "\"Nowhere\"" {
                #expect(
                    try ListWriteAPITests.errors(response) == [
                        "Labels has no section “Nowhere” that takes rows: its sections are 0 (“0”, “Today”), 1 (“1”, “Later”)."
                    ], "\(response.text)")
            }
        }
        #expect(try Self.labels(server) == labels)
    }

    @Test func aBatchIsOnePatchForWatchersAndEachRowIsCounted() throws {
        let server = try EditingTests.server()
        let watcher = try EventStreamClient(port: server.port, target: "/to-drink")
        _ = try watcher.nextEvent(timeout: .seconds(30))
        let inserted = try Self.send(server, "/to-drink/-/insert", #"{"rows": [{"wine": "Tempier 2020"}, {"wine": "Trévallon 2018"}]}"#)
        #expect(inserted.status == 201)
        let batch = try TurboStream.parse(try LiveListTests.nextBatch(watcher).data)
        #expect(batch.contains { $0.template?.contains("Tempier 2020") == true })
        #expect(batch.contains { $0.template?.contains("Trévallon 2018") == true })
        #expect(try Self.send(server, "/to-drink/-/upsert", #"{"rows": [{"id": 1, "drunk": true}, {"id": 2, "drunk": true}]}"#).status == 200)
        let metrics = try server.get("/metrics").text
        let lines = metrics.split(separator: "\n").filter { $0.hasPrefix("cellar_row_changes_total") && $0.contains(#"list="/to-drink""#) }
        #expect(lines.contains { $0.contains(#"action="insert""#) && $0.hasSuffix(" 2") }, "\(lines)")
        #expect(lines.contains { $0.contains(#"action="upsert""#) && $0.hasSuffix(" 2") }, "\(lines)")
        #expect(!metrics.contains("Tempier"))
    }
}
