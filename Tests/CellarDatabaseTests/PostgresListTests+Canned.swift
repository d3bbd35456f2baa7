import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// Canned queries over PostgreSQL: `:name` parameters bound (never spliced), the rows SQLite's
/// own `:name` binding gives, and what only looks like a parameter left as written.
extension PostgresListTests {
    static let cannedYAML = """
        queries:
          from_vintage:
            title: Wines from a vintage
            sql: |
              SELECT id, name, vintage FROM wines
              WHERE CAST(vintage AS bigint) >= :from AND name <> ':not_a_parameter' AND "name" <> 'x' -- nor :this
              ORDER BY id
          named:
            sql: "SELECT id, name FROM wines WHERE name = :name OR lower(name) = lower(:name) ORDER BY id"
        """

    @Test func aCannedQuerysParametersAreBoundAsOverSQLite() throws {
        let fixture = try fixture
        let configuration = try DatabaseConfiguration(yaml: Self.cannedYAML, file: "canned.yaml")
        let postgres = try ListTestServer(serving: Database(postgres: PostgresConnectionInfo(fixture.readerURL)), configuration: configuration)
        let sqlite = try DatabaseTestServer(fixture.sqliteFile, configuration: configuration)
        for target in [
            "/-/queries/from_vintage.json?from=2003", "/-/queries/from_vintage.json?from=2003&offset=10&limit=5",
            "/-/queries/named.json?name=Wine%201", "/-/queries/named.json?name=WINE%202",
            "/-/queries/named.json?name=%27%20OR%201%3D1%20--", "/-/queries/named.json?name=%3Cb%3Ex%3C%2Fb%3E",
            "/-/queries/named.json?name=%24%241%24%24",
        ] {
            let expected = try sqlite.json(target)
            let answer = try postgres.json(target)
            #expect(answer.rows == expected.rows, "\(target)")
            #expect(answer["meta"]?["total"] == expected["meta"]?["total"], "\(target)")
        }
        #expect(try postgres.json("/-/queries/named.json?name=%27%20OR%201%3D1%20--").rows.isEmpty)
        #expect(try postgres.json("/-/queries/from_vintage.json?from=2003").rows.count > 0)
        // The form asks for each parameter; the index lists the queries.
        let page = try postgres.get("/-/queries/from_vintage?from=2003").text
        #expect(page.contains("name=\"from\""))
        #expect(try postgres.get("/").text.contains("/-/queries/from_vintage"))
        // A value PostgreSQL cannot read as the column's type is a 400 with its message, not a 500.
        let bad = try postgres.get("/-/queries/from_vintage.json?from=abc")
        #expect(bad.status == 400, "\(bad.text.prefix(300))")
        // Without its value, the query answers as over SQLite (its form, asking for it).
        #expect(try postgres.get("/-/queries/from_vintage.json").status == (try sqlite.get("/-/queries/from_vintage.json").status))
    }

    @Test func aCannedQueryWithANumberedParameterIsRefusedAtStart() throws {
        let fixture = try fixture
        let configuration = try DatabaseConfiguration(
            yaml: "queries:\n  numbered:\n    sql: SELECT id FROM wines WHERE id = $1\n", file: "canned.yaml")
        #expect(throws: ConfigurationError.self) {
            try ListTestServer(serving: Database(postgres: PostgresConnectionInfo(fixture.readerURL)), configuration: configuration)
        }
        let reserved = try DatabaseConfiguration(yaml: "queries:\n  r:\n    sql: SELECT id FROM wines WHERE id = :limit\n", file: "canned.yaml")
        #expect(throws: ConfigurationError.self) {
            try ListTestServer(serving: Database(postgres: PostgresConnectionInfo(fixture.readerURL)), configuration: reserved)
        }
    }
}
