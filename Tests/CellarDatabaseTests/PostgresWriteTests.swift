import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// Writes to PostgreSQL tables, served `--writable` as a role whose grants decide, over sockets:
/// the JSON write API (insert, `ignore`, `replace`, upsert, update, delete, compound keys,
/// `If-Match`), constraint violations as 422s naming the column, grants and read-only tables as
/// 403s, the schema's forms and editing mode — each refusal leaving the database as it was.
///
/// Against the cluster `make test-postgres` starts; skipped without it.
@Suite(.serialized, .enabled(if: PostgresTestServer.url != nil, "CELLAR_TEST_POSTGRES is not set (make test-postgres sets it)"))
struct PostgresWriteTests {
    @Test func insertUpdateAndDeleteByVersion() throws {
        let served = try PostgresWriteTestServer.fresh()
        let inserted = try served.post("/books/-/insert", #"{"row": {"title": "Neuromancer", "year": 1984, "author_id": 1}, "return": true}"#)
        #expect(inserted.status == 201, "\(inserted.text)")
        let row = try #require(try inserted.json["rows"]?.array.first)
        #expect(row["id"]?.integer == 2)
        #expect(row["shout"]?.string == "NEUROMANCER")
        #expect(row["notes"]?.string == "none")
        // The row page's ETag is the row's version: an update from it is taken, and gives the next.
        let tag = try #require(try served.get("/books/2").headers["ETag"])
        let updated = try served.post(
            "/books/2/-/update", #"{"update": {"title": "Count Zero", "year": 1986}, "return": true}"#, headers: [("If-Match", tag)])
        #expect(updated.status == 200, "\(updated.text)")
        #expect(try updated.json["row"]?["shout"]?.string == "COUNT ZERO")
        let next = try #require(updated.headers["ETag"])
        #expect(next != tag)
        #expect(try served.get("/books/2").headers["ETag"] == next)
        // The second writer from the old version is refused; nothing is overwritten.
        let stale = try served.post("/books/2/-/update", #"{"update": {"title": "Mine"}}"#, headers: [("If-Match", tag)])
        #expect(stale.status == 412)
        #expect(try stale.json["ok"] == .bool(false))
        #expect(try served.post("/books/2/-/delete", "{}", headers: [("If-Match", tag)]).status == 412)
        #expect(try served.rows("SELECT title, year FROM books WHERE id = 2") == [[.text("Count Zero"), .integer(1986)]])
        #expect(try served.post("/books/2/-/delete", "{}", headers: [("If-Match", next)]).status == 200)
        #expect(try served.rows("SELECT count(*) FROM books WHERE id = 2") == [[.integer(0)]])
        #expect(try served.post("/books/2/-/delete", "{}").status == 404)
        // A batch is one transaction: its second row's refusal leaves the first out too.
        let batch = try served.post("/authors/-/insert", #"{"rows": [{"id": 3, "name": "Gibson"}, {"id": 4, "name": null}]}"#)
        #expect(batch.status == 422)
        #expect(try served.rows("SELECT count(*) FROM authors") == [[.integer(2)]])
    }

    @Test func aValueRefusedForASecretColumnIsNotQuotedBack() throws {
        let served = try PostgresWriteTestServer.fresh()
        // PostgreSQL's own message for a bad uuid quotes the text given: a secret's never comes back.
        let refused = try served.post("/vault/-/insert", #"{"row": {"id": 1, "token": "not-a-uuid-S3CR3T-7788"}}"#)
        #expect(refused.status == 422, "\(refused.text)")
        #expect(refused.text.contains("token") && !refused.text.contains("S3CR3T"), "\(refused.text)")
        #expect(try served.rows("SELECT count(*) FROM vault") == [[.integer(0)]])
    }

    @Test func ignoreReplaceUpsertAndCompoundKeys() throws {
        let served = try PostgresWriteTestServer.fresh()
        #expect(try served.post("/authors/-/insert", #"{"row": {"id": 1, "name": "Other"}, "ignore": true}"#).status == 201)
        #expect(try served.rows("SELECT name FROM authors WHERE id = 1") == [[.text("Le Guin")]])
        let replaced = try served.post("/authors/-/insert", #"{"row": {"id": 1, "name": "Ursula"}, "replace": true, "return": true}"#)
        #expect(replaced.status == 201, "\(replaced.text)")
        #expect(try replaced.json["rows"]?.array.first?["name"]?.string == "Ursula")
        let upserted = try served.post(
            "/authors/-/upsert", #"{"rows": [{"id": 2, "name": "Frank"}, {"id": 5, "name": "Butler"}], "return": true}"#)
        #expect(upserted.status == 200, "\(upserted.text)")
        #expect(
            try served.rows("SELECT id, name FROM authors ORDER BY id") == [
                [.integer(1), .text("Ursula")], [.integer(2), .text("Frank")], [.integer(5), .text("Butler")],
            ])
        #expect(try served.post("/authors/-/upsert", #"{"row": {"name": "No key"}}"#).status == 400)
        // If-Match is compared with each row an upsert or a replace would change.
        let stale = #""not-the-version""#
        #expect(try served.post("/authors/-/upsert", #"{"row": {"id": 2, "name": "Mine"}}"#, headers: [("If-Match", stale)]).status == 412)
        #expect(
            try served.post("/authors/-/insert", #"{"row": {"id": 2, "name": "Mine"}, "replace": true}"#, headers: [("If-Match", stale)]).status
                == 412)
        #expect(try served.rows("SELECT name FROM authors WHERE id = 2") == [[.text("Frank")]])
        let tag = try #require(try served.get("/authors/2").headers["ETag"])
        #expect(try served.post("/authors/-/upsert", #"{"row": {"id": 2, "name": "Pohl"}}"#, headers: [("If-Match", tag)]).status == 200)
        #expect(try served.rows("SELECT name FROM authors WHERE id = 2") == [[.text("Pohl")]])
        // A key of two columns, in the path as `a,b`.
        let edition = try served.post("/editions/1,2/-/update", #"{"update": {"label": "2nd"}, "return": true}"#)
        #expect(edition.status == 200, "\(edition.text)")
        #expect(try edition.json["row"]?["label"]?.string == "2nd")
        #expect(try served.post("/editions/1,9/-/update", #"{"update": {"label": "x"}}"#).status == 404)
        // Deleting a book cascades to its editions: said so, no Undo in editing mode.
        #expect(try served.post("/books/1/-/delete", "{}").status == 200)
        #expect(try served.rows("SELECT count(*) FROM editions") == [[.integer(0)]])
    }

    @Test func constraintsAre422sNamingTheColumn() throws {
        let served = try PostgresWriteTestServer.fresh()
        func refused(_ path: String, _ body: String) throws -> (Int, String) {
            let response = try served.post(path, body)
            return (response.status, response.errors.isEmpty ? response.text : response.errors)
        }
        let notNull = try refused("/books/-/insert", #"{"row": {"title": null}}"#)
        #expect(notNull.0 == 422 && notNull.1.contains("“title”"), "\(notNull)")
        #expect(try served.post("/books/-/insert", #"{"row": {"title": "A", "isbn": "1"}}"#).status == 201)
        let unique = try refused("/books/-/insert", #"{"row": {"title": "B", "isbn": "1"}}"#)
        #expect(unique.0 == 422 && unique.1.contains("“isbn”"), "\(unique)")
        let check = try refused("/books/-/insert", #"{"row": {"title": "C", "year": -1}}"#)
        #expect(check.0 == 422 && check.1.contains("books_year_check"), "\(check)")
        let foreign = try refused("/books/-/insert", #"{"row": {"title": "D", "author_id": 99}}"#)
        #expect(foreign.0 == 422 && foreign.1.contains("“author_id”"), "\(foreign)")
        let range = try refused("/books/-/insert", #"{"row": {"title": "E", "year": 3000000000}}"#)
        #expect(range.0 == 422 && range.1.contains("“year”"), "\(range)")
        let referenced = try refused("/authors/2/-/delete", "{}")
        #expect(referenced.0 == 422 && referenced.1.contains("refers to this one"), "\(referenced)")
        let generated = try refused("/books/-/insert", #"{"row": {"title": "F", "shout": "x"}}"#)
        #expect(generated.0 == 400, "\(generated)")
        // Hostile values: a NUL, markup and SQL, a megabyte, unknown columns, a wrong type.
        #expect(try served.post("/books/-/insert", #"{"row": {"title": "a\u0000b"}}"#).status == 400)
        #expect(try served.post("/books/-/insert", #"{"row": {"title": "x'); DROP TABLE books; --", "notes": "<script>"}}"#).status == 201)
        let big = String(repeating: "w", count: 1_000_000)
        #expect(try served.post("/books/-/insert", #"{"row": {"title": "\#(big)"}}"#).status == 201)
        #expect(try served.post("/books/-/insert", #"{"row": {"title": "G", "\"; DROP": 1}}"#).status == 400)
        #expect(try served.post("/books/-/insert", #"{"row": {"title": "H", "year": "abc"}}"#).status == 400)
        #expect(try served.post("/books/1/-/update", #"{"update": {"year": [1]}}"#).status == 400)
        // Hostile keys: not a number, past int8, SQL, a NUL, a traversal: a 4xx each, never a 500.
        for key in ["abc", "99999999999999999999", "1%20OR%201=1", "1%00", "..%2F..%2Fetc"] {
            let status = try served.post("/authors/\(key)/-/update", #"{"update": {"name": "x"}}"#).status
            #expect((400..<500).contains(status), "\(key): \(status)")
        }
        let blob = try served.post("/books/-/insert", #"{"row": {"title": "Bytes", "cover": {"$base64": "AAEC/w=="}}, "return": true}"#)
        #expect(blob.status == 201, "\(blob.text)")
        #expect(try served.rows("SELECT encode(cover, 'hex') FROM books WHERE title = 'Bytes'") == [[.text("000102ff")]])
        #expect(try served.rows("SELECT count(*) FROM books") == [[.integer(5)]])
        #expect(try served.rows("SELECT count(*) FROM authors") == [[.integer(2)]])
        // No 500 anywhere above; the server still answers.
        #expect(try served.get("/books").status == 200)
    }

    @Test func ofWritersOnOneRowFromOneVersionOnlyOneWins() throws {
        // A time limit long enough for the writers to wait for the row meanwhile.
        let served = try PostgresWriteTestServer.fresh(timeLimit: 60)
        let replica = try PostgresWriteTestServer(sharing: served, timeLimit: 60)
        let tag = try #require(try served.get("/authors/2").headers["ETag"])
        // Eight writers, through two servers' pools, each from the same version, all let go at
        // once: the row is held (FOR UPDATE, by the superuser) until each is waiting for it.
        try served.admin.execute("BEGIN", deadline: .seconds(30))
        _ = try served.admin.query("SELECT 1 FROM authors WHERE id = 2 FOR UPDATE", deadline: .seconds(30))
        let statuses = Locked<[Int]>([])
        let writers = DispatchGroup()
        for index in 0..<8 {
            DispatchQueue.global().async(group: writers) {
                let through = index.isMultiple(of: 2) ? served : replica
                let response = try? through.post("/authors/2/-/update", #"{"update": {"name": "writer \#(index)"}}"#, headers: [("If-Match", tag)])
                statuses.withLock { $0.append(response?.status ?? 0) }
            }
        }
        let waitingSQL = "SELECT count(*)::int8 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        let observer = try PostgresListFixture.superuser(database: PostgresWriteTestServer.databaseName)
        // As many as the servers' threads let in (at least two, for a race), waiting for the row.
        var waiting: Int64 = 0
        var steady = 0
        for _ in 0..<1200 where waiting < 8 && !(waiting >= 2 && steady >= 20) {
            guard case .integer(let count)? = try observer.query(waitingSQL, deadline: .seconds(30)).rows.first?.first else { break }
            steady = count == waiting ? steady + 1 : 0
            waiting = count
            usleep(50_000)
        }
        #expect(waiting >= 2, "writers waiting for the row: \(waiting)")
        try served.admin.execute("COMMIT", deadline: .seconds(30))
        #expect(writers.wait(timeout: .now() + 120) == .success)
        let all = statuses.withLock { $0 }
        #expect(all.filter { $0 == 200 }.count == 1, "\(all)")
        #expect(all.filter { $0 == 412 }.count == 7, "\(all)")
        let name = try served.rows("SELECT name FROM authors WHERE id = 2")
        #expect(name.count == 1 && name[0][0] != .text("Herbert"))
        // --require-if-match: an unversioned update is a 428, nothing written.
        let strict = try PostgresWriteTestServer(sharing: served, requiresIfMatch: true)
        #expect(try strict.post("/authors/2/-/update", #"{"update": {"name": "blind"}}"#).status == 428)
        #expect(try served.rows("SELECT name FROM authors WHERE id = 2") == name)
    }

    @Test func grantsAndReadOnlyTablesAre403s() throws {
        let served = try PostgresWriteTestServer.fresh()
        // The role may only SELECT from `locked`: PostgreSQL's refusal, a 403 with its message.
        let denied = try served.post("/locked/-/insert", #"{"row": {"id": 2, "t": "x"}}"#)
        #expect(denied.status == 403, "\(denied.text)")
        #expect(denied.errors.contains("permission denied"))
        #expect(try served.post("/locked/1/-/update", #"{"update": {"t": "x"}}"#).status == 403)
        // No primary key, a view: read-only, saying why.
        let plain = try served.post("/plain/-/insert", #"{"row": {"a": "y"}}"#)
        #expect(plain.status == 403)
        #expect(plain.errors.contains("no primary key"))
        #expect(try served.post("/titles/-/insert", #"{"row": {"title": "y"}}"#).status != 201)
        #expect(try served.rows("SELECT count(*) FROM locked") == [[.integer(1)]])
        #expect(try served.rows("SELECT count(*) FROM plain") == [[.integer(1)]])
        // Served without --writable: nothing is written.
        let readOnly = try PostgresWriteTestServer.fresh(writable: false)
        let refused = try readOnly.post("/authors/-/insert", #"{"row": {"id": 3, "name": "x"}}"#)
        #expect(refused.status == 403)
        #expect(refused.errors.contains("--writable"))
        #expect(try readOnly.rows("SELECT count(*) FROM authors") == [[.integer(2)]])
    }
}
