import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// Canned queries (`queries:` in the configuration): each a list at `/-/queries/{name}` whose
/// `:named` parameters come from the request, bound, never written into the SQL.
extension QueryHTTPTests {
    static let cannedYAML = """
        queries:
          by_vintage:
            sql: SELECT id, name, vintage FROM wines WHERE vintage = :vintage AND name LIKE :pattern ORDER BY id
            title: Wines of a vintage
            description: One vintage's wines, by a pattern of their name
          producers:
            sql: SELECT name, country FROM producers ORDER BY id
        """

    static func canned(allowsSQL: Bool = true) throws -> DatabaseTestServer {
        try DatabaseTestServer(
            TemporaryDatabase(CellarFixture.sql), configuration: DatabaseConfiguration(yaml: cannedYAML, file: "canned.yaml"),
            allowsSQL: allowsSQL)
    }

    @Test func aCannedQuerysParametersAreBoundAndItsRowsEqualTheReference() throws {
        let server = try Self.canned()
        for (vintage, pattern) in [("2001", "Wine 1%"), ("2003", "%"), ("2001", "' OR 1=1 --"), ("2001 OR 1=1", "%"), ("<b>", "%")] {
            let target = "/-/queries/by_vintage.json?vintage=\(percentEncoded(vintage))&pattern=\(percentEncoded(pattern))&limit=1000"
            let page = try server.json(target)
            let expected = try server.reference(
                "SELECT id FROM wines WHERE vintage = ? AND name LIKE ? ORDER BY id", [.text(vintage), .text(pattern)])
            #expect(
                page.rows.compactMap { $0["item"]?["id"]?.integer }
                    == expected.compactMap { value in
                        if case .integer(let id) = value.first { id } else { nil }
                    }, "\(vintage) \(pattern)")
            #expect(page["title"]?.string == "Wines of a vintage")
        }
        // A parameter-free query runs at once.
        #expect(try server.json("/-/queries/producers.json").rows.count == 5)
    }

    @Test func aCannedQuerysFormAsksForEachParameterAndKeepsItsValueEscaped() throws {
        let server = try Self.canned()
        let empty = try server.get("/-/queries/by_vintage")
        #expect(empty.status == 200)
        #expect(HTMLRows.identifiers(empty.text).isEmpty, "no rows before every parameter has a value")
        #expect(empty.text.contains("<label for=\"parameter-vintage\">vintage</label><input type=\"text\" id=\"parameter-vintage\" name=\"vintage\""))
        #expect(empty.text.contains("<label for=\"parameter-pattern\">pattern</label>"))
        #expect(!empty.text.contains("<textarea"))
        let filled = try server.get("/-/queries/by_vintage?vintage=2001&pattern=%3Cscript%3Ex%3C%2Fscript%3E%22")
        #expect(filled.text.contains("value=\"&lt;script&gt;x&lt;/script&gt;&quot;\""))
        #expect(!filled.text.contains("<script>x"))
        let csv = try server.get("/-/queries/by_vintage.csv?vintage=2001&pattern=Wine%201%25")
        #expect(csv.status == 200)
        #expect(csv.text.hasPrefix("id,name,vintage\r\n"))
        #expect(try server.get("/-/queries/by_vintage.csv?vintage=2001").status == 400)
    }

    @Test func cannedQueriesAreOnTheIndexAndStayWithoutTheSQLPage() throws {
        let server = try Self.canned(allowsSQL: false)
        let entries = try server.json("/index.json").rows.compactMap { $0["item"] }
        let entry = try #require(entries.first { $0["path"]?.string == "/-/queries/by_vintage" })
        #expect(entry["title"]?.string == "Wines of a vintage")
        #expect(entry["summary"]?.string == "One vintage's wines, by a pattern of their name")
        #expect(try server.get("/-/query").status == 404)
        #expect(try server.json("/-/queries/producers.json").rows.count == 5)
    }

    @Test(arguments: [
        "SELECT * FROM wines WHERE id = :limit", "SELECT * FROM wines WHERE id = :sql", "SELECT * FROM wines WHERE id = @facet",
        "SELECT * FROM wines WHERE id = :filter_value", "SELECT * FROM wines WHERE id = ?", "DELETE FROM wines WHERE id = :id",
        "SELECT * FROM no_such_table", "SELECT 1; SELECT 2",
    ])
    func aCannedQueryThatCannotBeServedStopsTheStart(sql: String) throws {
        let yaml = "queries:\n  bad:\n    sql: \"\(sql)\"\n"
        #expect(throws: ConfigurationError.self, "\(sql)") {
            try DatabaseTestServer(TemporaryDatabase(CellarFixture.sql), configuration: DatabaseConfiguration(yaml: yaml, file: "bad.yaml"))
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: cellarExecutable), "the cellar executable is not built"))
    func aReservedParameterNameIsExit64() throws {
        let database = try TemporaryDatabase("CREATE TABLE t(id INTEGER PRIMARY KEY);")
        let config = database.file("test.yaml")
        try "queries:\n  q:\n    sql: SELECT id FROM t WHERE id = :offset\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try Self.routes(["--database", database.path]).status == 64)
        try "queries:\n  q:\n    sql: SELECT id FROM t WHERE id = :id\n".write(toFile: config, atomically: true, encoding: .utf8)
        let routes = try Self.routes(["--database", database.path])
        #expect(routes.status == 0)
        #expect(routes.output.contains("GET     /-/queries/q\n"))
    }
}
