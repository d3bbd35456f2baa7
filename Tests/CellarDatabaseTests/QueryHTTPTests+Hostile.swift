import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// Statements `/-/query` must not run, or must cut short: each refused with a 4xx or cut by the time
/// limit with a 503 — never a 500 — and the file's bytes (and any journal's) the same afterwards.
extension QueryHTTPTests {
    /// Statements SQLite's authorizer, the read-only connection or the limits refuse, with a part of
    /// the message each answer holds.
    static let refused: [(sql: String, message: String)] = [
        ("INSERT INTO producers VALUES (9, 'x', 'y')", "only reads"),
        ("UPDATE wines SET name = 'x'", "only reads"),
        ("DELETE FROM wines", "only reads"),
        ("REPLACE INTO grapes VALUES ('a', 'b')", "only reads"),
        ("CREATE TABLE t(x)", "only reads"),
        ("CREATE TEMP TABLE t(x)", "only reads"),
        ("CREATE INDEX i ON wines(name)", "only reads"),
        ("CREATE VIEW v AS SELECT 1", "only reads"),
        ("DROP TABLE wines", "only reads"),
        ("DROP VIEW IF EXISTS cheap_wines", "only reads"),
        ("ALTER TABLE wines ADD COLUMN x", "only reads"),
        ("UPDATE sqlite_master SET sql = 'x'", "may not be modified"),
        ("ATTACH DATABASE '/tmp/cellar-attached.db' AS other", "only reads"),
        ("DETACH DATABASE main", "only reads"),
        ("PRAGMA writable_schema = 1", "only reads"),
        ("PRAGMA journal_mode = delete", "only reads"),
        ("PRAGMA user_version = 7", "only reads"),
        ("PRAGMA database_list", "only reads"),
        ("SELECT * FROM pragma_database_list", "only reads"),
        ("SELECT load_extension('x')", "only reads"),
        ("VACUUM", "only reads"),
        ("VACUUM INTO '/tmp/cellar-vacuumed.db'", "only reads"),
        ("ANALYZE", "only reads"),
        ("REINDEX", "only reads"),
        ("EXPLAIN DELETE FROM wines", "only reads"),
        ("INSERT INTO wines_search(wines_search) VALUES ('rebuild')", "only reads"),
        ("BEGIN", "only reads"),
        ("SAVEPOINT s", "only reads"),
        ("SELECT randomblob(1000000000)", "too big"),
        ("SELECT zeroblob(2000000)", "too big"),
        ("SELECT hex(zeroblob(600000))", "too big"),
        ("SELECT 1; SELECT 2", "more than one statement"),
        ("SELECT 1; DROP TABLE wines", "more than one statement"),
        ("SELECT * FROM no_such_table", "no such table"),
        ("SELEKT 1", "syntax error"),
        ("SELECT 1\u{0}; DROP TABLE wines", "NUL"),
    ]

    @Test func writesSchemaChangesAttachPragmasAndLimitsAreRefusedAndTheFileIsUnchanged() throws {
        let server = try Self.cellar()
        let before = try server.fileBytes()
        for (sql, message) in Self.refused {
            for path in ["/-/query.json", "/-/query", "/-/query.csv"] {
                let response = try server.get(Self.target(sql, path))
                #expect(response.status == 400, "\(path) \(sql): \(response.status) \(response.text.prefix(300))")
                #expect(response.text.contains(message), "\(path) \(sql): \(response.text.prefix(400))")
            }
        }
        #expect(try server.fileBytes() == before)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/cellar-vacuumed.db"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/cellar-attached.db"))
        // The list readers are untouched, and the SQL page still reads.
        #expect(try server.json("/wines.json?limit=3").rows.count == 3)
        #expect(try server.json(Self.target("SELECT count(*) AS n FROM wines")).rows.first?["item"]?["n"] == .integer(150))
    }

    @Test func whatOnlyReadsIsAllowed() throws {
        let server = try Self.cellar()
        let allowed = [
            "PRAGMA table_info(wines)",
            "SELECT name FROM pragma_table_info('wines') ORDER BY cid",
            "SELECT value FROM json_each('[1, 2, 3]')",
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT i FROM n",
            "SELECT name, sql FROM sqlite_schema",
            "SELECT w.name, p.name FROM wines w JOIN producers p ON p.id = w.producer_id",
            "VALUES (1, 'a'), (2, 'b')",
            "SELECT length(randomblob(1000)), upper('x'), datetime(0, 'unixepoch') -- a comment",
            "SELECT 1; -- and a comment after",
            "SELECT rowid FROM wines_search WHERE wines_search MATCH 'oak' ORDER BY rank",
            "SELECT * FROM cheap_wines",
            "EXPLAIN QUERY PLAN SELECT * FROM wines WHERE id = 3",
        ]
        for sql in allowed {
            let response = try server.get(Self.target(sql))
            #expect(response.status == 200, "\(sql): \(response.text.prefix(300))")
        }
    }

    @Test func anEndlessRecursiveCTEIsCutByTheTimeLimit() throws {
        var options = DatabaseOptions()
        options.timeLimit = 0.2
        let server = try Self.cellar(options: options)
        let before = try server.fileBytes()
        let endless = [
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n",
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n ORDER BY i DESC",
        ]
        for sql in endless {
            for path in ["/-/query.json", "/-/query.csv"] {
                let response = try server.get(Self.target(sql, path))
                #expect(response.status == 503, "\(path) \(sql): \(response.text.prefix(300))")
                #expect(response.text.contains("limit of 0.2 s"), "\(path) \(sql)")
            }
        }
        // Stepped over, an offset far down an endless result is cut the same way.
        let deep = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n"
        #expect(try server.get(Self.target(deep, extra: "&offset=1000000000")).status == 503)
        // Without an order or a count, the first page of it is read and the rest left alone.
        let first = try server.json(Self.target(deep, extra: "&limit=10"))
        #expect(first.rows.count == 10)
        #expect(try server.fileBytes() == before)
    }

    @Test func aStatementOverTheLengthLimitIsRefused() throws {
        let server = try Self.cellar()
        let long = "SELECT 1" + String(repeating: " ", count: 1_000_000)
        let body = Array(("sql=" + percentEncoded(long)).utf8)
        let headers = [("Content-Type", "application/x-www-form-urlencoded")]
        // A megabyte's form is past the server's body limit, or, under it, the statement's.
        for path in ["/-/query", "/-/query.json"] {
            let response = try TestHTTPClient.send("POST", path, port: server.server.port, headers: headers, body: body)
            #expect(response.status == 413, "\(path): \(response.text.prefix(300))")
        }
        let justOver = "SELECT 1" + String(repeating: " ", count: 100_000)
        let response = try TestHTTPClient.send(
            "POST", "/-/query.json", port: server.server.port, headers: headers, body: Array(("sql=" + percentEncoded(justOver)).utf8))
        #expect(response.status == 413)
        #expect(response.text.contains("at most 100,000"), "\(response.text.prefix(300))")
        #expect(try server.get("/-/query.json?sql=SELECT%201&cursor=abc").status == 400)
    }

    @Test func aPageStopsAtItsByteLimitAndTheNextGoesOn() throws {
        let server = try Self.cellar()
        // 20 rows of 1.8 MB each: the page stops once its values reach 8 MB, after the fifth.
        let sql = """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
            SELECT i, hex(zeroblob(450000)) AS a, hex(zeroblob(450000)) AS b FROM n
            """
        let page = try server.json(Self.target(sql, extra: "&limit=1000"))
        #expect(page.rows.compactMap { $0["item"]?["i"]?.integer } == [1, 2, 3, 4, 5])
        let next = try #require(page["links"]?["next"]?.string)
        #expect(next.contains("offset=5"))
        #expect(try server.json(next).rows.first?["item"]?["i"]?.integer == 6)
        let html = try server.get(Self.target(sql, "/-/query", extra: "&limit=1000"))
        #expect(html.text.contains("This page stops after 5 rows"))
    }
}
