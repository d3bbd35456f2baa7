import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// The JSON write API over a SQLite file served `--writable`, in Datasette 1.0's shapes: inserts,
/// upserts, updates and deletes by key (rowid, declared, compound, `WITHOUT ROWID`), every
/// constraint a 422 naming its column, and the file as it was after every refusal.
@Suite struct DatabaseWriteAPITests {
    @Test func anInsertReturnsTheRowsAsStored() throws {
        let served = try DatabaseWriteTestServer()
        let response = try served.post(
            "/books/-/insert", #"{"row": {"title": "The Dispossessed", "year": 1974, "author_id": 1}, "return": true}"#)
        #expect(response.status == 201, "\(response.text)")
        let row = try #require(try response.json["rows"].flatMap { if case .array(let rows) = $0 { rows.first } else { nil } })
        #expect(row["title"] == .string("The Dispossessed"))
        #expect(row["notes"] == .string("none"))
        #expect(row["shout"] == .string("THE DISPOSSESSED"))
        let id = try #require(row["id"])
        #expect(try served.get("/books/\(id).json").status == 200)
        // Without "return", only ok.
        let plain = try served.post("/books/-/insert", #"{"rows": [{"title": "A"}, {"title": "B"}]}"#)
        #expect(plain.status == 201)
        #expect(try plain.json == .object(["ok": .bool(true)]))
        #expect(try served.rows("SELECT count(*) FROM books") == [[.integer(4)]])
        #expect(try served.integrityCheck() == [[.text("ok")]])
    }

    /// A token writes where its actions name and its actor may; its answers are private and vary on credentials.
    @Test func aTokenWritesOnlyWhereItsActionsSay() throws {
        let served = try DatabaseWriteTestServer()
        let keys = try SessionKeys(text: DatabaseWriteTestServer.key)
        let token = try BearerToken.make(
            actor: "alice", scopes: [BearerToken.Scope("view"), BearerToken.Scope("insert:books")],
            expiresAt: Int64(Date().timeIntervalSince1970) + 3600, keys: keys)
        let inserted = try served.post("/books/-/insert", #"{"row": {"title": "Scoped"}}"#, token: token)
        #expect(inserted.status == 201, "\(inserted.text)")
        func fields(_ name: String) -> [String] { inserted.headerFields.filter { $0.name.lowercased() == name }.map(\.value) }
        #expect(fields("cache-control") == ["private, no-cache"])
        #expect(fields("vary") == ["Cookie, Authorization"])
        #expect(try served.post("/tags/-/insert", #"{"row": {"name": "q", "n": 1}}"#, token: token).status == 403)
        #expect(try served.post("/books/1/-/update", #"{"update": {"title": "x"}}"#, token: token).status == 403)
        #expect(try served.rows("SELECT count(*) FROM books WHERE title = 'Scoped'") == [[.integer(1)]])
        #expect(try served.rows("SELECT count(*) FROM tags WHERE name = 'q'") == [[.integer(0)]])
    }

    @Test func eachShapeOfAWriteHasItsOwnStatement() throws {
        let served = try DatabaseWriteTestServer()
        // The same columns with another conflict or RETURNING, then other columns: each its own SQL text.
        #expect(try served.post("/books/-/insert", #"{"row": {"id": 7, "title": "A"}}"#).status == 201)
        #expect(try served.post("/books/-/insert", #"{"row": {"id": 7, "title": "B"}, "ignore": true}"#).status == 201)
        #expect(try served.rows("SELECT title FROM books WHERE id = 7") == [[.text("A")]])
        #expect(try served.post("/books/-/insert", #"{"row": {"id": 7, "title": "C"}, "replace": true}"#).status == 201)
        #expect(try served.rows("SELECT title FROM books WHERE id = 7") == [[.text("C")]])
        let returned = try served.post("/books/-/insert", #"{"row": {"id": 8, "title": "D"}, "return": true}"#)
        #expect(returned.status == 201, "\(returned.text)")
        #expect(returned.text.contains(#""title":"D""#), "\(returned.text)")
        #expect(try served.post("/books/-/insert", #"{"row": {"title": "E", "year": 1999}}"#).status == 201)
        #expect(try served.rows("SELECT year FROM books WHERE title = 'E'") == [[.integer(1999)]])
        #expect(try served.post("/books/7/-/update", #"{"update": {"year": 2001}}"#).status == 200)
        #expect(try served.post("/books/7/-/update", #"{"update": {"title": "F", "year": 2002}}"#).status == 200)
        #expect(try served.rows("SELECT title, year FROM books WHERE id = 7") == [[.text("F"), .integer(2002)]])
    }

    @Test func aBatchIsAllOrNothing() throws {
        let served = try DatabaseWriteTestServer()
        let response = try served.post("/books/-/insert", #"{"rows": [{"title": "Fine"}, {"title": null}]}"#)
        #expect(response.status == 422)
        #expect(try response.json["ok"] == .bool(false))
        #expect(response.errors.contains("title"))
        #expect(try served.rows("SELECT count(*) FROM books") == [[.integer(1)]])
    }

    @Test func everyConstraintIsA422NamingItsColumn() throws {
        let served = try DatabaseWriteTestServer()
        let cases: [(String, String, String)] = [
            ("/books/-/insert", #"{"row": {"year": 2000}}"#, "title"),  // NOT NULL
            ("/books/-/insert", #"{"row": {"title": "T", "year": -5}}"#, "year"),  // CHECK
            ("/books/-/insert", #"{"row": {"title": "T", "author_id": 99}}"#, "author_id"),  // FOREIGN KEY
            ("/authors/-/insert", #"{"row": {"name": "Herbert"}}"#, "name"),  // UNIQUE
            ("/books/-/insert", #"{"row": {"id": 1, "title": "Again"}}"#, "books"),  // PRIMARY KEY
            ("/counts/-/insert", #"{"row": {"n": 1.5}}"#, "n"),  // STRICT
            ("/editions/-/insert", #"{"row": {"book_id": 1, "number": 1}}"#, "editions"),  // compound key taken
            ("/books/1/-/update", #"{"update": {"author_id": 42}}"#, "author_id"),
        ]
        for (target, body, named) in cases {
            let response = try served.post(target, body)
            #expect(response.status == 422, "\(target) \(body): \(response.status) \(response.text)")
            #expect(response.errors.contains(named), "\(target) \(body): \(response.errors)")
        }
        #expect(try served.rows("SELECT count(*) FROM books") == [[.integer(1)]])
        #expect(try served.rows("SELECT author_id FROM books WHERE id = 1") == [[.integer(2)]])
        #expect(try served.integrityCheck() == [[.text("ok")]])
    }

    @Test func updatesAndDeletesByEveryKindOfKey() throws {
        let served = try DatabaseWriteTestServer()
        let updated = try served.post("/books/1/-/update", #"{"update": {"title": "Dune Messiah"}, "return": true}"#)
        #expect(updated.status == 200, "\(updated.text)")
        #expect(try updated.json["row"]?["title"] == .string("Dune Messiah"))
        #expect(try updated.json["row"]?["shout"] == .string("DUNE MESSIAH"))
        // A compound key, WITHOUT ROWID.
        #expect(try served.post("/editions/1,2/-/update", #"{"update": {"label": "2nd"}}"#).status == 200)
        #expect(try served.rows("SELECT label FROM editions WHERE number = 2") == [[.text("2nd")]])
        // A comma and a tilde within a key, tilde-encoded as Datasette writes them.
        #expect(try served.post("/tags/a~2Cb/-/update", #"{"update": {"n": 10}}"#).status == 200)
        #expect(try served.post("/tags/x~7Ey/-/delete", "{}").status == 200)
        #expect(try served.rows("SELECT name, n FROM tags") == [[.text("a,b"), .integer(10)]])
        // A rowid table: its rows by rowid, which an insert returns.
        let inserted = try served.post("/plain/-/insert", #"{"row": {"a": "y", "b": 2}, "return": true}"#)
        guard case .array(let rows) = try inserted.json["rows"], let rowID = rows.first?["rowid"] else {
            Issue.record("no rowid in \(inserted.text)")
            return
        }
        #expect(try served.post("/plain/\(rowID)/-/update", #"{"update": {"b": 3}}"#).status == 200)
        #expect(try served.post("/plain/1/-/delete", "").status == 200)
        #expect(try served.rows("SELECT a, b FROM plain") == [[.text("y"), .integer(3)]])
        // A row that is not there.
        let missing = try served.post("/books/999/-/delete", "")
        #expect(missing.status == 404)
        #expect(try missing.json["ok"] == .bool(false))
        #expect(try served.integrityCheck() == [[.text("ok")]])
    }

    /// An update without `If-Match` answers with the version of the row as stored: the same as the
    /// row's page sends afterwards, when the update moved its key, and when a trigger changed the
    /// row after the update (a `RETURNING` clause would give the row as it was before the trigger).
    @Test func anUpdateAnswersWithTheVersionOfTheRowAsStored() throws {
        let served = try DatabaseWriteTestServer(
            sql: DatabaseWriteTestServer.sql + """
                CREATE TABLE counted(id INTEGER PRIMARY KEY, t TEXT, edits INTEGER NOT NULL DEFAULT 0);
                CREATE TRIGGER counted_edits AFTER UPDATE OF t ON counted BEGIN UPDATE counted SET edits = edits + 1 WHERE id = NEW.id; END;
                CREATE TRIGGER counted_kept BEFORE UPDATE OF t ON counted WHEN NEW.t = 'kept' BEGIN SELECT RAISE(IGNORE); END;
                INSERT INTO counted(id, t) VALUES (1, 'a');
                """)
        func versionAnswered(_ target: String, _ body: String) throws -> String? {
            let response = try served.post(target, body)
            #expect(response.status == 200, "\(target): \(response.text)")
            return response.headers["ETag"]
        }
        let plain = try versionAnswered("/books/1/-/update", #"{"update": {"title": "Children of Dune"}}"#)
        #expect(plain != nil)
        #expect(try served.get("/books/1.json").headers["ETag"] == plain)
        #expect(try served.post("/books/-/insert", #"{"row": {"id": 7, "title": "Solaris"}}"#).status == 201)
        let moved = try versionAnswered("/books/7/-/update", #"{"update": {"id": 50, "year": 1961}}"#)
        #expect(try served.get("/books/50.json").headers["ETag"] == moved)
        #expect(try served.get("/books/7.json").status == 404)
        let returned = try served.post("/counted/1/-/update", #"{"update": {"t": "b"}, "return": true}"#)
        #expect(try returned.json["row"]?["edits"] == .integer(1), "\(returned.text)")
        let triggered = try #require(returned.headers["ETag"])
        #expect(try served.get("/counted/1.json").headers["ETag"] == triggered)
        #expect(try served.post("/counted/1/-/update", #"{"update": {"t": "c"}}"#, headers: [("If-Match", triggered)]).status == 200)
        // An update a trigger ignores leaves the row as it was, and says so by its version.
        let ignored = try served.post("/counted/1/-/update", #"{"update": {"t": "kept"}}"#)
        #expect(ignored.status == 200, "\(ignored.text)")
        #expect(try ignored.headers["ETag"] == served.get("/counted/1.json").headers["ETag"])
        #expect(try served.rows("SELECT t FROM counted") == [[.text("c")]])
        // A row that is not there, with no version to compare.
        let missing = try served.post("/books/999/-/update", #"{"update": {"title": "Nobody"}}"#)
        #expect(missing.status == 404, "\(missing.text)")
        #expect(try served.rows("SELECT count(*) FROM books WHERE id = 999") == [[.integer(0)]])
        #expect(try served.integrityCheck() == [[.text("ok")]])
    }

    /// A writable table's list JSON gives each row's version: the same its row page's `ETag` holds.
    @Test func theListsJSONGivesEachRowsVersionAsItsPageDoes() throws {
        let served = try DatabaseWriteTestServer()
        let list = try served.get("/books.json").text
        let tag = try #require(try served.get("/books/1.json").headers["ETag"])
        #expect(list.contains(#""version":\#(tag)"#), "\(list.prefix(400))")
        let readOnly = try DatabaseWriteTestServer(writable: false)
        #expect(try !readOnly.get("/books.json").text.contains(#""version""#))
    }

    @Test func upsertInsertsOrUpdatesByKey() throws {
        let served = try DatabaseWriteTestServer()
        let response = try served.post(
            "/tags/-/upsert", #"{"rows": [{"name": "a,b", "n": 5}, {"name": "new", "n": 6}], "return": true}"#)
        #expect(response.status == 200, "\(response.text)")
        #expect(
            try served.rows("SELECT name, n FROM tags ORDER BY name") == [
                [.text("a,b"), .integer(5)], [.text("new"), .integer(6)], [.text("x~y"), .integer(2)],
            ])
        #expect(try served.post("/tags/-/upsert", #"{"row": {"n": 5}}"#).status == 400)
    }

    @Test func theSecondOfTwoWritersOnOneRowIsRefused() throws {
        let served = try DatabaseWriteTestServer()
        let page = try served.get("/books/1.json")
        let version = try #require(page.headers["ETag"])
        // The HTML page has the same version, and a request that names it is answered 304.
        #expect(try served.get("/books/1").headers["ETag"] == version)
        #expect(try served.get("/books/1.json", headers: [("If-None-Match", version)]).status == 304)
        #expect(try served.get("/books/1", headers: [("If-None-Match", version)]).status == 304)
        let first = try served.post("/books/1/-/update", #"{"update": {"title": "First"}}"#, headers: [("If-Match", version)])
        #expect(first.status == 200, "\(first.text)")
        let second = try served.post("/books/1/-/update", #"{"update": {"title": "Second"}}"#, headers: [("If-Match", version)])
        #expect(second.status == 412)
        #expect(try second.json["ok"] == .bool(false))
        let stale = try served.post("/books/1/-/delete", "", headers: [("If-Match", version)])
        #expect(stale.status == 412)
        #expect(try served.rows("SELECT title FROM books") == [[.text("First")]])
        // The new version is the one the write answered with, and the page now sends.
        let now = try #require(first.headers["ETag"])
        #expect(try served.get("/books/1.json").headers["ETag"] == now)
        #expect(try served.get("/books/1").headers["ETag"] == now)
        // The old version no longer validates: the changed row is sent whole.
        #expect(try served.get("/books/1.json", headers: [("If-None-Match", version)]).status == 200)
        // Its editions refer to it: a FOREIGN KEY refusal, nothing deleted.
        let referenced = try served.post("/books/1/-/delete", "", headers: [("If-Match", now)])
        #expect(referenced.status == 422, "\(referenced.text)")
        for number in [1, 2] { #expect(try served.post("/editions/1,\(number)/-/delete", "").status == 200) }
        #expect(try served.post("/books/1/-/delete", "", headers: [("If-Match", now)]).status == 200)
        #expect(try served.rows("SELECT count(*) FROM books") == [[.integer(0)]])
        #expect(try served.integrityCheck() == [[.text("ok")]])
    }

    @Test func upsertAndReplaceCompareIfMatchWithTheRowsTheyWouldChange() throws {
        let served = try DatabaseWriteTestServer()
        #expect(try served.post("/tags/-/insert", #"{"row": {"name": "t", "n": 1}}"#).status == 201)
        let version = try #require(try served.get("/tags/t.json").headers["ETag"])
        #expect(try served.post("/tags/t/-/update", #"{"update": {"n": 2}}"#).status == 200)
        // From the old version: refused, the whole batch with it, nothing overwritten.
        let staleUpsert = try served.post(
            "/tags/-/upsert", #"{"rows": [{"name": "new", "n": 9}, {"name": "t", "n": 9}]}"#, headers: [("If-Match", version)])
        #expect(staleUpsert.status == 412, "\(staleUpsert.text)")
        let staleReplace = try served.post("/tags/-/insert", #"{"row": {"name": "t", "n": 9}, "replace": true}"#, headers: [("If-Match", version)])
        #expect(staleReplace.status == 412, "\(staleReplace.text)")
        #expect(try served.rows("SELECT name, n FROM tags WHERE name IN ('t', 'new') ORDER BY name") == [[.text("t"), .integer(2)]])
        // From the row's version now (one of the tags a list names): taken.
        let now = try #require(try served.get("/tags/t.json").headers["ETag"])
        #expect(try served.post("/tags/-/upsert", #"{"row": {"name": "t", "n": 3}}"#, headers: [("If-Match", "\"other\", \(now)")]).status == 200)
        let current = try #require(try served.get("/tags/t.json").headers["ETag"])
        #expect(
            try served.post("/tags/-/insert", #"{"row": {"name": "t", "n": 4}, "replace": true}"#, headers: [("If-Match", current)]).status == 201)
        #expect(try served.rows("SELECT n FROM tags WHERE name = 't'") == [[.integer(4)]])
    }

    @Test func requireIfMatchRefusesAnUnversionedWrite() throws {
        let served = try DatabaseWriteTestServer { $0.requiresIfMatch = true }
        #expect(try served.post("/books/1/-/update", #"{"update": {"title": "X"}}"#).status == 428)
        #expect(try served.post("/books/1/-/delete", "").status == 428)
        #expect(try served.post("/tags/-/upsert", #"{"row": {"name": "q", "n": 1}}"#).status == 428)
        #expect(try served.post("/books/-/insert", #"{"row": {"title": "New"}}"#).status == 201)
        #expect(try served.rows("SELECT title FROM books WHERE id = 1") == [[.text("Dune")]])
    }

    @Test func aChangeReachesAWatcherAtOnce() throws {
        // The poll interval is an hour: only the write's own notice can bring the change.
        let served = try DatabaseWriteTestServer()
        let client = try EventStreamClient(port: served.server.port, target: "/books?limit=10")
        #expect(client.status == 200)
        #expect(try served.post("/books/-/insert", #"{"row": {"id": 7, "title": "Watched"}}"#).status == 201)
        let batch = try #require(try LiveDatabaseListTests.nextBatch(client))
        #expect(batch.data.contains("Watched"))
    }
}

/// Writers at once on one file: two servers (as two processes would be) each with several
/// clients, and the `sqlite3` command line among them, adding to the same counter. Every
/// acknowledged insert is there, no update is lost, and the file checks out. The same with real
/// processes, `wrk` and for a minute: Tests/database/concurrent-writers.sh.
@Suite struct ConcurrentDatabaseWriteTests {
    @Test func everyAcknowledgedChangeIsKept() throws {
        let first = try DatabaseWriteTestServer()
        // A second server on the same file, with its own writer connection.
        let second = try DatabaseWriteTestServer(sharing: first)
        let acknowledged = Locked<[String]>([])
        let failures = Locked<[String]>([])
        let commandLineChanges = 10
        DispatchQueue.concurrentPerform(iterations: 9) { client in
            if client == 8 {
                // The command line, meanwhile: a row and one more on the counter, one transaction
                // each, which moves the row's version under the servers' clients.
                for number in 0..<commandLineChanges {
                    let sql = """
                        PRAGMA busy_timeout = 20000; BEGIN IMMEDIATE; INSERT INTO books(title) VALUES ('from the command line \(number)');
                        UPDATE tags SET n = n + 1 WHERE name = 'a,b'; COMMIT;
                        """
                    do { try LiveDatabaseListTests.sqlite3(first.database.path, sql) } catch { failures.withLock { $0.append("\(error)") } }
                }
                return
            }
            let served = client.isMultiple(of: 2) ? first : second
            for number in 0..<25 {
                let title = "c\(client)-\(number)"
                do {
                    let response = try served.post("/books/-/insert", #"{"row": {"title": "\#(title)"}}"#)
                    if response.status == 201 {
                        acknowledged.withLock { $0.append(title) }
                    } else {
                        failures.withLock { $0.append("\(response.status) \(response.text)") }
                    }
                    // And adds one to a counter row, read then written with If-Match, again after a
                    // 412: no increment may be lost.
                    while true {
                        let page = try served.get("/tags/a%2Cb.json")
                        guard let version = page.headers["ETag"], case .integer(let n)? = try page.json["item"]?["n"] else {
                            failures.withLock { $0.append("no version or n in \(page.text)") }
                            break
                        }
                        let update = try served.post(
                            "/tags/a~2Cb/-/update", #"{"update": {"n": \#(n + 1)}}"#, headers: [("If-Match", version)])
                        if update.status == 200 { break }
                        if update.status != 412 {
                            failures.withLock { $0.append("\(update.status) \(update.text)") }
                            break
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let stored = Set(try first.rows("SELECT title FROM books").compactMap { row -> String? in if case .text(let t) = row[0] { t } else { nil } })
        for title in acknowledged.withLock({ $0 }) { #expect(stored.contains(title), "\(title) was acknowledged but is not there") }
        for number in 0..<commandLineChanges { #expect(stored.contains("from the command line \(number)")) }
        #expect(try first.rows("SELECT n FROM tags WHERE name = 'a,b'") == [[.integer(1 + 8 * 25 + Int64(commandLineChanges))]])
        #expect(try first.integrityCheck() == [[.text("ok")]])
    }
}
