import Foundation
import HTTPTestSupport
import Showcase
import TableKit
import Testing

@testable import Cellar

/// The JSON write API on an app's own editable lists, over sockets: the showcase's `/to-drink`
/// (anyone may change it) and a list of notes that only bob may change, with a bearer token.
/// Every answer is Datasette's shape, `{"ok": …}`; a refused write leaves the list as it was.
@Suite struct ListWriteAPITests {
    struct Note: Codable, Sendable, Identifiable {
        var id: Int
        var text: String
    }

    struct NoteValues: Decodable {
        let text: String
    }

    struct NoteForm: FormController {
        var note: Note?
        var sections: [FormSection] {
            [FormSection(fields: [.text("text", label: "Text", isRequired: true, value: note?.text ?? "", maxLength: 200)])]
        }
    }

    struct NotesController: EditableItemsController {
        let snapshot: EditableItems<Note>.Snapshot
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            DataCellProvider(for: indexPath, cell: PlainTextCell.self, data: item(at: indexPath).text)
        }
        func insertForm(inSection section: Int) -> (any FormController)? { NoteForm() }
        func editingForm(forRowAt indexPath: IndexPath) -> (any FormController)? { NoteForm(note: item(at: indexPath)) }
        func makeItem(id: Int, context: EditingContext) throws -> Note {
            let text = try context.decode(NoteValues.self).text
            guard text != "forbidden" else { throw EditingError("That word stays off the list.", field: "text") }
            return Note(id: id, text: text)
        }
    }

    static let json = [("Content-Type", "application/json")]

    static func send(_ server: TestServer, _ target: String, _ body: String, headers: [(String, String)] = json) throws -> TestHTTPResponse {
        try TestHTTPClient.send("POST", target, port: server.port, headers: headers, body: Array(body.utf8), timeout: .seconds(60))
    }

    static func signedInServer() throws -> TestServer {
        try SignInFixture.server { app in
            try app.register(PlainTextCell.self)
            let store = EditableItems<Note>(sections: [.init(items: [Note(id: 1, text: "Decant the Musar")])])
            app.list("/notes", paging: .unpaged, hasDetail: false) { _ in NotesController(snapshot: store.snapshot) }
            for action in [Action.view, .insert, .update, .delete] { app.access.permissions.grant(action, on: "/notes", to: "bob") }
        }
    }

    static func token(_ actor: String) throws -> String {
        try BearerToken.make(
            actor: actor, scopes: try ["view", "insert", "update", "delete"].map { try BearerToken.Scope($0) },
            expiresAt: Int64(Date().timeIntervalSince1970) + 3600, keys: try SessionKeys(text: SignInFixture.key))
    }

    static func errors(_ response: TestHTTPResponse) throws -> [String] {
        let json = try response.json()
        #expect(json["ok"] == .bool(false))
        guard case .array(let errors)? = json["errors"] else { return [] }
        return errors.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    @Test func anyoneMayInsertUpdateAndDeleteOnToDrink() throws {
        let server = try EditingTests.server()
        let inserted = try Self.send(server, "/to-drink/-/insert", #"{"row": {"wine": "Musar 2016", "vintage": 2016}, "return": true}"#)
        #expect(inserted.status == 201)
        let insertedJSON = try inserted.json()
        #expect(insertedJSON["ok"] == .bool(true))
        guard case .array(let rows)? = insertedJSON["rows"], let row = rows.first else {
            Issue.record("no rows: \(inserted.text)")
            return
        }
        #expect(row["wine"] == .string("Musar 2016"))
        #expect(row["drunk"] == .bool(false))
        let id = try #require(row["id"].flatMap { if case .integer(let number) = $0 { number } else { nil } })
        #expect(try EditingTests.wines(server).last == "Musar 2016")

        // Only the fields sent change; the others keep the row's values.
        let updated = try Self.send(server, "/to-drink/\(id)/-/update", #"{"update": {"drunk": true}, "return": true}"#)
        #expect(updated.status == 200)
        #expect(try updated.json()["row"]?["drunk"] == .bool(true))
        #expect(try updated.json()["row"]?["wine"] == .string("Musar 2016"))
        #expect(updated.headers["ETag"] == "\"\(try EditingTests.version(of: String(id), in: server))\"")

        let deleted = try Self.send(server, "/to-drink/\(id)/-/delete", "")
        #expect(deleted.status == 200)
        #expect(deleted.text == #"{"ok":true}"#)
        #expect(try !EditingTests.wines(server).contains("Musar 2016"))
        #expect(try Self.send(server, "/to-drink/\(id)/-/delete", "").status == 404)
        #expect(try Self.send(server, "/to-drink/\(id)/-/update", #"{"update": {"wine": "x"}}"#).status == 404)
    }

    @Test func hostileBodiesAre4xxAndLeaveTheListAsItWas() throws {
        let server = try EditingTests.server()
        let before = try EditingTests.wines(server)
        let cases: [(String, Int)] = [
            (#"{"row": {"wine": "a\u0000b"}}"#, 422),
            (#"{"row": {"wine": "\#(String(repeating: "x", count: 500))"}}"#, 422),
            (#"{"row": {"wine": "\#(String(repeating: "x", count: 2_000_000))"}}"#, 413),
            (#"{"row": {"<script>alert(1)</script>": "x"}}"#, 400),
            (#"{"row": {"wine": ["a"]}}"#, 400),
            (#"{"row": {"wine": "Musar", "vintage": "old"}}"#, 422),
            (#"{"row": {}}"#, 422),
            (#"{"rows": [{"wine": "Musar"}, {"wine": "Tempier", "vintage": "old"}]}"#, 422),
            (#"{"row": {"wine": "Musar"}, "alter": true}"#, 400),
            (#"{"row": {"wine": "Musar", "wine": "Tempier"}}"#, 400),
            (#"{"row": {"wine": "Musar", "vintage": 1e400}}"#, 400),
            ("'; DROP TABLE wines; --", 400),
            ("", 400),
        ]
        for (body, status) in cases {
            let response = try Self.send(server, "/to-drink/-/insert", body)
            #expect(response.status == status, "\(body.prefix(60)): \(response.text.prefix(200))")
            #expect(try !Self.errors(response).isEmpty)
        }
        let huge = try Self.send(server, "/to-drink/-/insert", #"{"row": {"wine": "Musar", "vintage": 1e400}}"#)
        #expect(try Self.errors(huge) == ["The field “vintage” of “row” has a number too large for any field (past a double’s range)."])
        let update = try Self.send(server, "/to-drink/1/-/update", #"{"update": {"vintage": 99999}}"#)
        #expect(update.status == 422)
        #expect(try Self.errors(update).first?.contains("vintage") == true)
        #expect(try EditingTests.wines(server) == before)
    }

    /// `curl -d` sends a form's content type with `Accept: */*`: a script, answered in JSON as any
    /// other; only a body of a form from a client asking for HTML (a browser's) gets a page.
    @Test func aFormTypedBodyFromAScriptIsAnsweredInJSON() throws {
        let server = try EditingTests.server()
        let curl = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "*/*")]
        let inserted = try Self.send(server, "/to-drink/-/insert", #"{"row": {"wine": "Chinon 2019"}}"#, headers: curl)
        #expect(inserted.status == 201, "\(inserted.text.prefix(200))")
        for body in ["not json", #"{"row": {"wine": "Musar", "vintage": "old"}}"#, #"{"row": {"nope": 1}}"#] {
            let refused = try Self.send(server, "/to-drink/-/insert", body, headers: curl)
            #expect(refused.headers["Content-Type"]?.hasPrefix("application/json") == true, "\(body): \(refused.text.prefix(200))")
            #expect(try !Self.errors(refused).isEmpty, "\(body)")
        }
        let browser = try Self.send(
            server, "/to-drink/-/insert", "not json", headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "text/html")])
        #expect(browser.headers["Content-Type"]?.hasPrefix("text/html") == true)
    }

    /// Each row of an editable list's JSON says its version: what `If-Match` takes, and what the
    /// update's `ETag` then gives back.
    @Test func theListsJSONGivesEachRowsVersion() throws {
        let server = try EditingTests.server()
        func versions() throws -> [String: String] {
            let json = try server.getAcceptingJSON("/to-drink.json").json()
            guard case .array(let sections)? = json["sections"], case .array(let rows)? = sections.first?["rows"] else { return [:] }
            var versions: [String: String] = [:]
            for row in rows {
                if case .string(let id)? = row["id"], case .string(let version)? = row["version"] { versions[id] = version }
            }
            return versions
        }
        let before = try versions()
        let version = try #require(before["1"])
        #expect(before.count == (try EditingTests.wines(server)).count)
        let updated = try Self.send(
            server, "/to-drink/1/-/update", #"{"update": {"drunk": true}}"#, headers: Self.json + [("If-Match", "\"\(version)\"")])
        #expect(updated.status == 200, "\(updated.text)")
        let after = try #require(try versions()["1"])
        #expect(after != version)
        #expect(updated.headers["ETag"] == "\"\(after)\"")
        #expect(
            try Self.send(server, "/to-drink/1/-/update", #"{"update": {"drunk": false}}"#, headers: Self.json + [("If-Match", "\"\(version)\"")])
                .status == 412)
        // A list that cannot be changed gives no versions.
        #expect(try !server.getAcceptingJSON("/people.json?limit=2").text.contains(#""version""#))
    }

    @Test func aStaleIfMatchIs412AndRequiringOneIs428() throws {
        let server = try EditingTests.server()
        let version = try EditingTests.version(of: "1", in: server)
        let stale = try Self.send(server, "/to-drink/1/-/update", #"{"update": {"wine": "Lost"}}"#, headers: Self.json + [("If-Match", "\"0000\"")])
        #expect(stale.status == 412)
        #expect(try !EditingTests.wines(server).contains("Lost"))
        let fresh = try Self.send(
            server, "/to-drink/1/-/update", #"{"update": {"wine": "Kept"}}"#, headers: Self.json + [("If-Match", "\"\(version)\"")])
        #expect(fresh.status == 200)
        // The row changed: the version read before is stale now.
        let delete = try Self.send(server, "/to-drink/1/-/delete", "", headers: [("If-Match", "\"\(version)\"")])
        #expect(delete.status == 412)
        #expect(try EditingTests.wines(server).first == "Kept")

        let strict = try TestServer { app in
            try Showcase.install(in: app, peopleCount: 10, listbenchCount: 10, bigCount: 10)
            app.databaseRequiresIfMatch = true
        }
        #expect(try Self.send(strict, "/to-drink/1/-/delete", "").status == 428)
        #expect(try Self.send(strict, "/to-drink/-/insert", #"{"row": {"wine": "New"}}"#).status == 201)
    }

    @Test func aCrossSitePostWithoutABearerIsRefused() throws {
        let server = try EditingTests.server()
        let before = try EditingTests.wines(server)
        let forged = try Self.send(server, "/to-drink/1/-/delete", "", headers: Self.json + [("Sec-Fetch-Site", "cross-site")])
        #expect(forged.status == 403)
        #expect(try EditingTests.wines(server) == before)
    }

    @Test func aBearerTokenWritesWhereItsActorMay() throws {
        let server = try Self.signedInServer()
        let anonymous = try Self.send(server, "/notes/-/insert", #"{"row": {"text": "Chill the Riesling"}}"#)
        #expect(anonymous.status == 401)
        #expect(try !Self.errors(anonymous).isEmpty)
        let alice = try Self.send(
            server, "/notes/-/insert", #"{"row": {"text": "Chill"}}"#, headers: Self.json + [("Authorization", "Bearer \(try Self.token("alice"))")])
        #expect(alice.status == 403)
        let bob = Self.json + [("Authorization", "Bearer \(try Self.token("bob"))"), ("Sec-Fetch-Site", "cross-site")]
        let inserted = try Self.send(server, "/notes/-/insert", #"{"row": {"text": "Chill the Riesling"}, "return": true}"#, headers: bob)
        #expect(inserted.status == 201)
        #expect(inserted.text.contains(#""text":"Chill the Riesling""#))
        let refused = try Self.send(server, "/notes/1/-/update", #"{"update": {"text": "forbidden"}}"#, headers: bob)
        #expect(refused.status == 422)
        #expect(try Self.errors(refused) == ["text: That word stays off the list."])
        #expect(try Self.send(server, "/notes/1/-/delete", "", headers: bob).status == 200)
        // The showcase's list is anyone's, signed in or not.
        #expect(try Self.send(server, "/to-drink/1/-/delete", "").status == 200)
    }

    @Test func aWatcherOfTheListGetsThePatch() throws {
        let server = try EditingTests.server()
        let watcher = try EventStreamClient(port: server.port, target: "/to-drink")
        _ = try watcher.nextEvent(timeout: .seconds(30))
        #expect(try Self.send(server, "/to-drink/2/-/delete", "").status == 200)
        let removal = try TurboStream.parse(try LiveListTests.nextBatch(watcher).data)
        #expect(removal.map(\.summary).contains("remove row-2"))
        #expect(try Self.send(server, "/to-drink/-/insert", #"{"row": {"wine": "Tempier 2020"}}"#).status == 201)
        let addition = try TurboStream.parse(try LiveListTests.nextBatch(watcher).data)
        #expect(addition.contains { $0.template?.contains("Tempier 2020") == true })
    }
}
