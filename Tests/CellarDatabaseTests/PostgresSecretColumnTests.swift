import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Logging
import Testing

/// Secret columns over PostgreSQL: the lists never show them, and, with no authorizer to read
/// them as NULL, the database has no `/-/query` while it has one (the log says why at start).
/// Run by `make test-postgres` against its throwaway cluster; skipped without it.
@Suite(.serialized, .enabled(if: PostgresTestServer.url != nil, "CELLAR_TEST_POSTGRES is not set (make test-postgres sets it)"))
struct PostgresSecretColumnTests {
    static let key = "S3CR3T-pg-4411"

    @Test func listsHideItAndTheSQLPageIsOff() throws {
        let url = try #require(PostgresTestServer.url)
        let owner = try PostgresConnection(PostgresConnectionInfo(url), deadline: .seconds(30))
        try owner.execute(
            """
            DROP TABLE IF EXISTS secret_people; CREATE TABLE secret_people(id int8 PRIMARY KEY, name text NOT NULL, api_key text);
            INSERT INTO secret_people VALUES (1, 'ada', '\(Self.key)'), (2, 'bob', NULL);
            """, deadline: .seconds(30))
        defer { try? owner.execute("DROP TABLE IF EXISTS secret_people", deadline: .seconds(30)) }
        var configuration = DatabaseConfiguration()
        var table = DatabaseConfiguration.Table()
        table.secret = ["api_key"]
        configuration.tables["secret_people"] = table
        configuration.queries = [.init(name: "names", sql: "SELECT name FROM secret_people ORDER BY id")]
        let lines = LogLines()
        var logger = Logger(label: "pg-secret-test") { _ in LogLines.Handler(lines: lines) }
        logger.logLevel = .trace
        let served = try ListTestServer(serving: Database(postgres: PostgresConnectionInfo(url)), configuration: configuration, logger: logger)
        for target in ["/secret_people", "/secret_people.json", "/secret_people.csv", "/secret_people/1", "/secret_people/1.json"] {
            let page = try served.get(target)
            #expect(page.status == 200, "\(target): \(page.status) \(page.text.prefix(300))")
            #expect(!page.text.contains("S3CR3T"), "\(target)")
        }
        #expect(try served.get("/secret_people.json").text.contains("ada"))
        #expect(try served.get("/secret_people.json?api_key=x").status == 400)
        #expect(try served.get("/secret_people.json?sort=api_key").status == 400)
        #expect(try served.get("/-/query?sql=SELECT%20api_key%20FROM%20secret_people").status == 404)
        // The operator's own statements still run.
        #expect(try served.get("/-/queries/names.json").text.contains("bob"))
        #expect(lines.text.contains("/-/query is off") && lines.text.contains("secret_people.api_key"))
        #expect(!lines.text.contains("S3CR3T"))
        // The same database without the secret keeps its SQL page: the rule is the secret's.
        let plain = try ListTestServer(serving: Database(postgres: PostgresConnectionInfo(url)))
        #expect(try plain.get("/-/query?sql=SELECT%201").status == 200)
    }
}
