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

/// Views over a secret column, read from PostgreSQL's catalogue as a role that owns none of
/// them (views run as their owner): one that shows it as a column keeps that column secret,
/// over a view too; one that reads it any other way stops the start, naming both.
extension PostgresSecretColumnTests {
    static let viewer = "cellar_secret_viewer"

    static func dropViewer(_ owner: PostgresConnection) throws {
        try owner.execute(
            """
            DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '\(viewer)') THEN EXECUTE 'DROP OWNED BY \(viewer) CASCADE'; END IF; END $$;
            DROP ROLE IF EXISTS \(viewer);
            """, deadline: .seconds(30))
    }

    /// The URL of a role that may only SELECT, made anew with a password of its own.
    static func viewerURL(_ owner: PostgresConnection) throws -> String {
        let password = "pw-" + UUID().uuidString.lowercased()
        try dropViewer(owner)
        try owner.execute(
            """
            CREATE ROLE \(viewer) LOGIN PASSWORD '\(password)'; GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(viewer);
            GRANT USAGE ON SCHEMA public TO \(viewer);
            """, deadline: .seconds(30))
        var components = try #require(PostgresTestServer.components)
        components.user = viewer
        components.password = password
        return try #require(components.string)
    }

    @Test func aViewShowingASecretKeepsItSecretAndOneReadingItOtherwiseStopsTheStart() throws {
        let url = try #require(PostgresTestServer.url)
        // The superuser owns the tables and views, and makes the role that reads them.
        let database = String((try #require(PostgresTestServer.components)).path.dropFirst())
        let owner = try PostgresListFixture.superuser(database: database)
        _ = url
        try owner.execute(
            """
            DROP TABLE IF EXISTS secret_people CASCADE; CREATE TABLE secret_people(id int8 PRIMARY KEY, name text NOT NULL, api_key text);
            INSERT INTO secret_people VALUES (1, 'ada', '\(Self.key)'), (2, 'bob', NULL);
            CREATE VIEW people_keys AS SELECT id, api_key AS key, name FROM secret_people;
            CREATE VIEW people_keys_again AS SELECT k.key AS shown, k.name FROM people_keys AS k;
            CREATE VIEW people_names AS SELECT p.id, p.name FROM secret_people AS p JOIN secret_people AS q ON q.id = p.id;
            """, deadline: .seconds(30))
        defer { try? owner.execute("DROP TABLE IF EXISTS secret_people CASCADE", deadline: .seconds(30)) }
        let viewerURL = try Self.viewerURL(owner)
        defer { try? Self.dropViewer(owner) }
        var configuration = DatabaseConfiguration()
        var table = DatabaseConfiguration.Table()
        table.secret = ["api_key"]
        configuration.tables["secret_people"] = table
        configuration.allowsSQL = false
        let served = try ListTestServer(serving: Database(postgres: PostgresConnectionInfo(viewerURL)), configuration: configuration)
        for view in ["people_keys", "people_keys_again"] {
            for target in ["/\(view)", "/\(view).json", "/\(view).csv"] {
                let page = try served.get(target)
                #expect(page.status == 200, "\(target): \(page.status) \(page.text.prefix(300))")
                #expect(!page.text.contains("S3CR3T"), "\(target)")
                #expect(page.text.contains("ada"), "\(target)")
            }
        }
        #expect(try served.get("/people_keys.json?key=x").status == 400)
        #expect(try served.get("/people_keys_again.json?sort=shown").status == 400)
        #expect(try served.get("/people_names.json").text.contains("bob"))
        // Read in an expression, a condition, or as a whole row: the start stops, naming the view and the column.
        for (view, definition) in [
            ("people_upper", "SELECT id, upper(api_key) AS k FROM secret_people"),
            ("people_both", "SELECT id, api_key, length(api_key) AS n FROM secret_people"),
            ("people_where", "SELECT id, name FROM secret_people WHERE api_key LIKE 'S3%'"),
            ("people_rows", "SELECT id, row_to_json(p) AS j FROM secret_people AS p"),
            ("people_upper_again", "SELECT id FROM people_keys WHERE key IS NOT NULL"),
        ] {
            try owner.execute("CREATE VIEW \(view) AS \(definition); GRANT SELECT ON \(view) TO \(Self.viewer)", deadline: .seconds(30))
            #expect {
                _ = try ListTestServer(serving: Database(postgres: PostgresConnectionInfo(viewerURL)), configuration: configuration)
            } throws: { error in
                let text = "\(error)"
                return error is ConfigurationError && text.contains(view) && (text.contains("api_key") || text.contains("key"))
                    && !text.contains("S3CR3T")
            }
            try owner.execute("DROP VIEW \(view)", deadline: .seconds(30))
        }
    }
}
