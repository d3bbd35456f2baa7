import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// `/-/query`: one read-only statement's rows as a list, over real sockets on the cellar fixture —
/// rows against the same statement run on a connection of the test's own, JSON, CSV, paging,
/// POST, markup, the reserved paths and `--no-sql`. Hostile statements are in `+Hostile`.
@Suite struct QueryHTTPTests {
    static func cellar(options: DatabaseOptions = DatabaseOptions()) throws -> DatabaseTestServer {
        try DatabaseTestServer(TemporaryDatabase(CellarFixture.sql), options: options)
    }

    static func target(_ sql: String, _ path: String = "/-/query.json", extra: String = "") -> String {
        path + "?sql=" + percentEncoded(sql) + extra
    }

    @Test func aSelectsRowsEqualTheReferenceInOrderAndType() throws {
        let server = try Self.cellar()
        let sql = "SELECT id, name, price, label, mixed FROM wines WHERE id % 3 = 0 ORDER BY price DESC, id LIMIT 40"
        let page = try server.json(Self.target(sql, extra: "&limit=1000"))
        let expected = try server.reference(sql)
        #expect(page["title"]?.string == "Run SQL")
        #expect(page.rows.count == expected.count)
        for (row, values) in zip(page.rows, expected) {
            let item = try #require(row["item"])
            for (name, value) in zip(["id", "name", "price", "label", "mixed"], values) {
                #expect(item[name] == value.json, "\(name) of \(row)")
            }
            #expect(row["cell"]?.string == "DatabaseColumnsCell")
        }
        // Rows are numbered in the result, from 1.
        #expect(page.ids == (1...expected.count).map(String.init))
    }

    @Test func repeatedColumnNamesAreKeptUnderNamesOfTheirOwn() throws {
        let server = try Self.cellar()
        let item = try #require(server.json(Self.target("SELECT 1 AS a, 2 AS a, 3 AS a_2")).rows.first?["item"])
        #expect(item == .object(["a": .integer(1), "a_2": .integer(2), "a_2_2": .integer(3)]))
    }

    @Test func pagesByOffsetUntilTheLastRow() throws {
        let server = try Self.cellar()
        let sql = "SELECT id, name FROM wines ORDER BY id"
        let walked = try server.walk(Self.target(sql, extra: "&limit=40"))
        #expect(walked.pages == 4)
        #expect(walked.rows.compactMap { $0["item"]?["id"]?.integer } == Array(1...150))
        let last = try server.json(Self.target(sql, extra: "&offset=140&limit=40"))
        #expect(last["links"]?["next"]?.isNull != false)
        #expect(last.ids.first == "141")
        // Past the end: no rows, and the total is what the statement has.
        let past = try server.json(Self.target(sql, extra: "&offset=9999"))
        #expect(past.rows.isEmpty)
        #expect(past["meta"]?["total"]?.integer == 150)
    }

    @Test func htmlShowsTheFormAndTheRowsInDatabaseRowCellsWithMarkupEscaped() throws {
        let server = try Self.cellar()
        let sql = "SELECT name, '<script>alert(1)</script>' AS \"<i>x</i>\" FROM producers WHERE id = 3"
        let page = try server.get(Self.target(sql, "/-/query"))
        #expect(page.status == 200)
        let html = page.text
        #expect(html.contains("<textarea id=\"sql\" name=\"sql\""))
        #expect(html.contains("<label for=\"sql\">SQL</label>"))
        #expect(html.contains("<button type=\"submit\">Run</button>"))
        // The statement in the form, the value and the column's name, all escaped.
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&lt;b&gt;Bold&lt;/b&gt; &amp; Co"))
        #expect(html.contains("&lt;i&gt;x&lt;/i&gt;"))
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<i>x</i>"))
        #expect(HTMLRows.identifiers(html) == ["1"])
        #expect(html.contains("href=\"/-/query.csv?sql="))
    }

    @Test func withoutAStatementThePageIsTheFormAlone() throws {
        let server = try Self.cellar()
        for target in ["/-/query", "/-/query?sql=", "/-/query?sql=%20%0A"] {
            let page = try server.get(target)
            #expect(page.status == 200, "\(target)")
            #expect(page.text.contains("<textarea id=\"sql\""), "\(target)")
            #expect(HTMLRows.identifiers(page.text).isEmpty, "\(target)")
        }
        #expect(try server.json("/-/query.json").rows.isEmpty)
    }

    @Test func jsonByAcceptAndCSVByPath() throws {
        let server = try Self.cellar()
        let sql = "SELECT id, name, price, label FROM wines WHERE id IN (3, 4, 10, 11) ORDER BY id"
        let accepted = try server.json(Self.target(sql, "/-/query"), headers: [("Accept", "application/json")])
        #expect(accepted.rows.count == 4)
        let csv = try server.get(Self.target(sql, "/-/query.csv"))
        #expect(csv.status == 200)
        #expect(csv.headers["Content-Type"] == "text/csv; charset=utf-8")
        let lines = csv.text.components(separatedBy: "\r\n")
        #expect(lines.first == "id,name,price,label")
        #expect(lines[1] == "3,\"<b>x</b> Château \"\"Ünïcødé\"\" 'quoted'\",39.25,")
        #expect(lines[2] == "4,\"Grüner, 100% / x\",12.25,")
        #expect(lines[3] == "10,Wine 10,10.25,AP8Q")
        #expect(lines.count == 6 && lines[5].isEmpty)
    }

    @Test func csvStopsAtTheRowCapAndLinksTheRest() throws {
        let server = try Self.cellar()
        let sql = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500) SELECT i FROM n"
        let csv = try server.get(Self.target(sql, "/-/query.csv"))
        #expect(csv.status == 200)
        let lines = csv.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.count == 1 + 1000)
        #expect(lines.last == "1000")
        let next = try #require(csv.links["next"])
        #expect(next.hasSuffix("&offset=1000"))
        let rest = try server.get(next).text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rest.count == 1 + 500)
        #expect(rest[1] == "1001")
    }

    @Test func aFormPostRunsAStatementTooLongForTheURL() throws {
        let server = try Self.cellar()
        // 40 KB of statement: more than a request head may hold here.
        let padding = String(repeating: " ", count: 40_000)
        let sql = "SELECT id, name FROM wines WHERE id < 4\(padding)ORDER BY id"
        let body = Array(("sql=" + percentEncoded(sql) + "&limit=2").utf8)
        let headers = [("Content-Type", "application/x-www-form-urlencoded")]
        let json = try TestHTTPClient.send("POST", "/-/query.json", port: server.server.port, headers: headers, body: body)
        #expect(json.status == 200, "\(json.text.prefix(300))")
        let page = try JSON.parse(json.body)
        #expect(page.rows.compactMap { $0["item"]?["id"]?.integer } == [1, 2])
        let html = try TestHTTPClient.send("POST", "/-/query", port: server.server.port, headers: headers, body: body)
        #expect(html.status == 200)
        #expect(HTMLRows.identifiers(html.text) == ["1", "2"])
        let csv = try TestHTTPClient.send("POST", "/-/query.csv", port: server.server.port, headers: headers, body: body)
        #expect(csv.text.hasPrefix("id,name\r\n1,Wine 1\r\n2,Wine 2\r\n3,"))
        let other = try TestHTTPClient.send(
            "POST", "/-/query.json", port: server.server.port, headers: [("Content-Type", "application/json")], body: Array("{}".utf8))
        #expect(other.status == 415)
    }

    @Test func theIndexLinksTheSQLPage() throws {
        let server = try Self.cellar()
        let index = try server.json("/index.json")
        let entry = try #require(index.rows.compactMap { $0["item"] }.first { $0["path"]?.string == "/-/query" })
        #expect(entry["title"]?.string == "Run SQL")
        #expect(try server.get("/").text.contains("href=\"/-/query\""))
    }

    @Test func tablesNamedLikeTheSQLPageDoNotTakeItsPaths() throws {
        let server = try DatabaseTestServer(
            TemporaryDatabase(
                """
                CREATE TABLE "query"(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO "query" VALUES (1, 'plain');
                CREATE TABLE "query.json"(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO "query.json" VALUES (1, 'twin');
                CREATE TABLE "queries"(id INTEGER PRIMARY KEY); CREATE TABLE "-"(id INTEGER PRIMARY KEY);
                """))
        let paths = Dictionary(uniqueKeysWithValues: server.mounted.map { ($0.table, $0.path) })
        #expect(paths["query"] == "/query")
        #expect(paths["queries"] == "/queries")
        #expect(paths["query.json"]?.hasPrefix("/-/x/") == true)
        #expect(try server.json("/query.json")["title"]?.string == "query")
        #expect(try server.json(paths["query.json"]! + ".json")["title"]?.string == "query.json")
        #expect(try server.json("/-/query.json")["title"]?.string == "Run SQL")
    }

    @Test func noSQLAndSQLFalseTurnThePageOff() throws {
        let database = try TemporaryDatabase(CellarFixture.sql)
        var configuration = DatabaseConfiguration()
        configuration.allowsSQL = false
        let servers = [
            try DatabaseTestServer(database, configuration: configuration), try DatabaseTestServer(database, allowsSQL: false),
        ]
        for server in servers {
            for target in ["/-/query", "/-/query.json", "/-/query.csv?sql=SELECT%201", "/-/query?sql=SELECT%201"] {
                #expect(try server.get(target).status == 404, "\(target)")
            }
            #expect(try server.json("/index.json").rows.allSatisfy { $0["item"]?["path"]?.string != "/-/query" })
        }
        let yaml = try DatabaseConfiguration(yaml: "sql: false\n", file: "test.yaml")
        #expect(yaml.allowsSQL == false)
        #expect(try DatabaseConfiguration(yaml: "sql: true\n", file: "test.yaml").allowsSQL)
        #expect(throws: ConfigurationError.self) { try DatabaseConfiguration(yaml: "sql: maybe\n", file: "test.yaml") }
    }
}

extension QueryHTTPTests {
    /// The `cellar` executable, built beside this test binary.
    static let cellarExecutable: String = {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return binary.deletingLastPathComponent().appendingPathComponent("cellar").path
    }()

    /// `cellar routes` with `arguments`: its standard output and status.
    static func routes(_ arguments: [String]) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cellarExecutable)
        process.arguments = ["routes"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: output, as: UTF8.self), process.terminationStatus)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: cellarExecutable), "the cellar executable is not built"))
    func theNoSQLFlagLeavesThePageOut() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(id INTEGER PRIMARY KEY);")
        let with = try Self.routes(["--database", database.path])
        #expect(with.status == 0)
        for route in ["GET     /-/query", "GET     /-/query.json", "POST    /-/query", "GET     /-/query.csv", "POST    /-/query.csv"] {
            #expect(with.output.contains(route + "\n"), "\(route) in \(with.output)")
        }
        let without = try Self.routes(["--database", database.path, "--no-sql"])
        #expect(without.status == 0)
        #expect(without.output.contains("GET     /t\n"))
        #expect(!without.output.contains("/-/query"), "\(without.output)")
    }
}
