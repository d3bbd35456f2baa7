import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// What the write API refuses — hostile bodies, keys and columns, actors without the permission,
/// forged cross-site requests, tables that stay read-only — each a 4xx in the API's error shape,
/// with the file left as it was.
@Suite struct DatabaseWriteRefusalTests {
    /// The table's rows, to compare before and after a refusal.
    static func snapshot(_ served: DatabaseWriteTestServer) throws -> [[[DatabaseValue]]] {
        try ["authors", "books", "editions", "tags", "plain", "counts", "frozen"].map { table in
            try served.rows("SELECT * FROM \(table) ORDER BY 1, 2")
        }
    }

    @Test func hostileBodiesAreRefusedAndChangeNothing() throws {
        let served = try DatabaseWriteTestServer()
        let before = try Self.snapshot(served)
        let tenThousand = "{\"rows\": [" + Array(repeating: #"{"title": "x"}"#, count: 10_000).joined(separator: ",") + "]}"
        let cases: [(String, String, Int)] = [
            ("/books/-/insert", "not json", 400),
            ("/books/-/insert", "", 400),
            ("/books/-/insert", #"{"rows": []}"#, 400),
            ("/books/-/insert", #"{"row": {"title": "x"}, "rows": [{"title": "y"}]}"#, 400),
            ("/books/-/insert", #"{"row": {"title": "x", "nope": 1}}"#, 400),
            ("/books/-/insert", #"{"row": {"title\"; DROP TABLE books; --": "x"}}"#, 400),
            ("/books/-/insert", #"{"row": {"title": {"nested": true}}}"#, 400),
            ("/books/-/insert", #"{"row": {"title": [1, 2]}}"#, 400),
            ("/books/-/insert", #"{"row": {"title": "x", "year": "nineteen"}}"#, 400),
            ("/books/-/insert", #"{"row": {"title": "x", "shout": "Y"}}"#, 400),
            ("/books/-/insert", #"{"row": {"title": "x"}, "ignore": true, "replace": true}"#, 400),
            ("/books/-/insert", tenThousand, 400),
            ("/books/1/-/update", #"{"title": "no update member"}"#, 400),
            ("/books/abc/-/update", #"{"update": {"title": "x"}}"#, 404),
            ("/editions/1/-/update", #"{"update": {"label": "x"}}"#, 404),
            ("/books/1%27%20OR%201=1/-/delete", "", 404),
            ("/nosuchtable/-/insert", #"{"row": {}}"#, 404),
        ]
        for (target, body, status) in cases {
            let response = try served.post(target, body)
            #expect(response.status == status, "\(target) \(body.prefix(80)): \(response.status) \(response.text.prefix(300))")
            #expect(try response.json["ok"] == .bool(false), "\(target): \(response.text.prefix(300))")
        }
        // A megabyte value: over the server's body limit, refused before it is read whole.
        let huge = "{\"row\": {\"title\": \"" + String(repeating: "a", count: 1 << 20) + "\"}}"
        let tooLarge = try served.post("/books/-/insert", huge)
        #expect(tooLarge.status == 413)
        #expect(try tooLarge.json["ok"] == .bool(false))
        // A GET of a write path: 405, in the same shape.
        let get = try served.get("/books/1/-/update", headers: [("Accept", "text/html")])
        #expect(get.status == 405)
        #expect(try get.json["ok"] == .bool(false))
        #expect(try Self.snapshot(served) == before)
        #expect(try served.integrityCheck() == [[.text("ok")]])
    }

    @Test func markupSQLAndNULAreStoredAsSent() throws {
        let served = try DatabaseWriteTestServer()
        let values = ["<script>alert(1)</script>", "'; DROP TABLE books; --", "a\u{0}b", "\u{202E}right-to-left"]
        for value in values {
            let body = try String(decoding: JSONSerialization.data(withJSONObject: ["row": ["title": value]]), as: UTF8.self)
            let response = try served.post("/books/-/insert", body)
            #expect(response.status == 201, "\(response.text)")
        }
        let stored = try served.rows("SELECT title FROM books WHERE id > 1 ORDER BY id").map { $0[0] }
        #expect(stored == values.map { DatabaseValue.text($0) })
        #expect(try served.integrityCheck() == [[.text("ok")]])
    }

    @Test func everyWritePathNeedsItsPermission() throws {
        let served = try DatabaseWriteTestServer()
        let before = try Self.snapshot(served)
        let bob = try Self.signIn(served, "bob")
        let alice = try Self.signIn(served, "alice")
        let paths: [(String, String)] = [
            ("/books/-/insert", #"{"row": {"title": "x"}}"#),
            ("/tags/-/upsert", #"{"row": {"name": "q", "n": 1}}"#),
            ("/books/1/-/update", #"{"update": {"title": "x"}}"#),
            ("/books/1/-/delete", ""),
        ]
        for (target, body) in paths {
            // No token, not signed in: 401.
            let anonymous = try served.post(target, body, token: nil)
            #expect(anonymous.status == 401, "\(target): \(anonymous.text)")
            #expect(try anonymous.json["ok"] == .bool(false))
            // A token that does not verify: 401.
            #expect(try served.post(target, body, token: served.token + "x").status == 401)
            // A token that may only view: 403.
            let viewer = try served.post(target, body, token: served.viewToken)
            #expect(viewer.status == 403, "\(target): \(viewer.text)")
            #expect(try viewer.json["ok"] == .bool(false))
            // Bob, signed in with a cookie, has no grant: 403.
            #expect(try served.post(target, body, token: nil, headers: [("Cookie", bob)]).status == 403)
            // Alice's cookie from another site: a forged request, refused before it is read.
            let forged = try served.post(
                target, body, token: nil, headers: [("Cookie", alice), ("Sec-Fetch-Site", "cross-site"), ("Origin", "https://evil.example")])
            #expect(forged.status == 403, "\(target): \(forged.text)")
        }
        #expect(try Self.snapshot(served) == before)
        // The same cookie from the site itself may.
        let own = try served.post(
            "/books/1/-/update", #"{"update": {"title": "Own"}}"#, token: nil, headers: [("Cookie", alice), ("Sec-Fetch-Site", "same-origin")])
        #expect(own.status == 200, "\(own.text)")
    }

    @Test func readOnlyTablesAndDatabasesSaySo() throws {
        let served = try DatabaseWriteTestServer()
        let frozen = try served.post("/frozen/1/-/update", #"{"update": {"t": "melted"}}"#)
        #expect(frozen.status == 403)
        #expect(frozen.errors.contains("writable: false"))
        // A view has no write paths at all.
        #expect(try served.post("/titles/-/insert", #"{"row": {"title": "x"}}"#).status == 404)
        let readOnly = try DatabaseWriteTestServer(writable: false)
        let refused = try readOnly.post("/books/-/insert", #"{"row": {"title": "x"}}"#)
        #expect(refused.status == 403)
        #expect(refused.errors.contains("--writable"))
        #expect(try readOnly.rows("SELECT count(*) FROM books") == [[.integer(1)]])
        #expect(try served.rows("SELECT t FROM frozen") == [[.text("ice")]])
    }

    static func signIn(_ served: DatabaseWriteTestServer, _ account: String) throws -> String {
        let response = try TestHTTPClient.send(
            "POST", "/-/signin", port: served.server.port, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("account=\(account)&password=pw-alice-1".utf8), timeout: .seconds(60))
        return String(try #require(response.headers["Set-Cookie"]).split(separator: ";")[0])
    }

    @Test func aSearchIndexIsKeptInStepOrTheTableIsReadOnly() throws {
        let sql = """
            CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);
            CREATE VIRTUAL TABLE notes_fts USING fts5(body, content='notes', content_rowid='id');
            CREATE TABLE drafts(id INTEGER PRIMARY KEY, body TEXT);
            CREATE VIRTUAL TABLE drafts_fts USING fts5(body, content='drafts', content_rowid='id');
            CREATE TRIGGER notes_ai AFTER INSERT ON notes BEGIN
                INSERT INTO notes_fts(rowid, body) VALUES (new.id, new.body);
            END;
            CREATE TRIGGER notes_ad AFTER DELETE ON notes BEGIN
                INSERT INTO notes_fts(notes_fts, rowid, body) VALUES ('delete', old.id, old.body);
            END;
            CREATE TRIGGER notes_au AFTER UPDATE ON notes BEGIN
                INSERT INTO notes_fts(notes_fts, rowid, body) VALUES ('delete', old.id, old.body);
                INSERT INTO notes_fts(rowid, body) VALUES (new.id, new.body);
            END;
            """
        let served = try DatabaseWriteTestServer(sql: sql)
        #expect(try served.post("/notes/-/insert", #"{"row": {"id": 1, "body": "a cellar of claret"}}"#).status == 201)
        let found = try served.get("/notes.json?q=claret")
        #expect(found.status == 200)
        #expect(found.text.contains("a cellar of claret"))
        #expect(try served.post("/notes/1/-/update", #"{"update": {"body": "burgundy now"}}"#).status == 200)
        #expect(!(try served.get("/notes.json?q=claret").text.contains("cellar")))
        // No trigger keeps drafts_fts in step: drafts stays read-only, and says why.
        let refused = try served.post("/drafts/-/insert", #"{"row": {"body": "x"}}"#)
        #expect(refused.status == 403)
        #expect(refused.errors.contains("drafts_fts"))
        #expect(try served.rows("SELECT count(*) FROM drafts") == [[.integer(0)]])
        #expect(try served.integrityCheck() == [[.text("ok")]])
    }

    @Test func aWriteAfterAMigrationIsA503NotA500() throws {
        let served = try DatabaseWriteTestServer()
        try served.database.writer().execute("ALTER TABLE tags RENAME COLUMN n TO count")
        let stale = try served.post("/tags/-/insert", #"{"row": {"name": "q", "n": 1}}"#)
        #expect(stale.status == 503, "\(stale.text)")
        #expect(try stale.json["ok"] == .bool(false))
        // A read looks at the schema again; the next write is checked against the new one.
        #expect(try served.get("/tags.json").status == 200)
        #expect(try served.post("/tags/-/insert", #"{"row": {"name": "q", "count": 1}}"#).status == 201)
        #expect(try served.post("/tags/-/insert", #"{"row": {"name": "r", "n": 1}}"#).status == 400)
    }
}
