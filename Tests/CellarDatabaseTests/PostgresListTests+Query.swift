import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// `/-/query` over PostgreSQL: the same statement's rows as over SQLite, writes refused by the
/// `READ ONLY` transaction, one statement only, the time limit, and nothing a statement sets left
/// on the connection for the next (`DISCARD ALL`).
extension PostgresListTests {
    static func query(_ sql: String, _ path: String = "/-/query.json", extra: String = "") -> String {
        path + "?sql=" + percentEncoded(sql) + extra
    }

    @Test func aQuerysRowsAndPagesAreSQLitesToo() throws {
        let fixture = try fixture
        let sql = "SELECT id, name, vintage FROM wines ORDER BY id"
        for extra in ["&limit=7", "&offset=5&limit=7", "&offset=99999"] {
            let sqlite = try fixture.sqlite.json(Self.query(sql, extra: extra))
            let postgres = try fixture.postgres.json(Self.query(sql, extra: extra))
            #expect(sqlite.rows == postgres.rows, "\(extra)")
            #expect(sqlite["meta"] == postgres["meta"], "\(extra)")
            #expect(sqlite["links"] == postgres["links"], "\(extra)")
        }
        let walked = try fixture.postgres.walk(Self.query(sql, extra: "&limit=50"))
        #expect(
            walked.rows.count
                == (try fixture.sqlite.reference("SELECT count(*) FROM wines").first?.first).flatMap { value in
                    if case .integer(let count) = value { Int(count) } else { nil }
                })
    }

    @Test func writesSecondStatementsAndUnreadableTablesAreRefused() throws {
        let fixture = try fixture
        let refused = [
            "INSERT INTO wines (id, name) VALUES (100000, 'x')", "UPDATE wines SET name = 'x'", "DELETE FROM wines",
            "CREATE TABLE t (x int)", "DROP TABLE wines", "SELECT 1; SELECT 2", "SELECT 1; COMMIT; DELETE FROM wines",
            "WITH gone AS (DELETE FROM wines RETURNING id) SELECT id FROM gone", "SELECT * FROM secrets", "SELECT $1", "SELEKT 1",
            "SET statement_timeout = 0", "COMMIT",
        ]
        for sql in refused {
            for path in ["/-/query.json", "/-/query", "/-/query.csv"] {
                let response = try fixture.postgres.get(Self.query(sql, path))
                #expect(response.status == 400, "\(path) \(sql): \(response.status) \(response.text.prefix(300))")
            }
        }
        let count = try fixture.postgres.json(Self.query("SELECT count(*) AS n FROM wines")).rows.first?["item"]?["n"]
        let expected = try fixture.sqlite.json(Self.query("SELECT count(*) AS n FROM wines")).rows.first?["item"]?["n"]
        #expect(count == expected)
    }

    @Test func whatAStatementSetsDoesNotOutliveIt() throws {
        let fixture = try fixture
        // A session setting and a session lock, each taken by a statement that reads.
        for sql in ["SELECT set_config('statement_timeout', '0', false)", "SELECT pg_advisory_lock(4242)"] {
            #expect(try fixture.postgres.get(Self.query(sql)).status == 200, "\(sql)")
        }
        for _ in 0..<4 {
            let setting = try fixture.postgres.json(Self.query("SELECT current_setting('statement_timeout') AS t")).rows.first?["item"]?["t"]
            #expect(setting == .string("1s"))
        }
        let admin = try PostgresListFixture.superuser(database: PostgresListFixture.databaseName)
        let locks = try admin.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242", deadline: .seconds(10))
        #expect(locks.rows.first?.first == .integer(0))
    }

    @Test func anEndlessQueryIsCutByTheTimeLimit() throws {
        let fixture = try fixture
        let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
        let response = try fixture.postgres.get(Self.query(endless))
        #expect(response.status == 503, "\(response.text.prefix(300))")
        // Read through a cursor, the first page of an endless result is only that page.
        let streamed = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n"
        let first = try fixture.postgres.json(Self.query(streamed, extra: "&limit=5"))
        #expect(first.rows.compactMap { $0["item"]?["i"]?.integer } == [1, 2, 3, 4, 5])
        // The lists still read.
        #expect(try fixture.postgres.json("/wines.json?limit=2").rows.count == 2)
    }
}

extension PostgresListTests {
    @Test func aRoleThatCanDoMoreThanReadGetsNoSQLPage() throws {
        let fixture = try fixture
        guard let cluster = PostgresTestServer.cluster, let port = PostgresTestServer.components?.port else {
            throw PostgresListFixture.FixtureError.noCluster
        }
        // The superuser, through the socket.
        let superuser = try ListTestServer(
            serving: Database(
                postgres: PostgresConnectionInfo("host=\(cluster) port=\(port) user=postgres dbname=\(PostgresListFixture.databaseName)")))
        #expect(try superuser.get("/-/query?sql=SELECT%201").status == 404)
        #expect(try superuser.json("/wines.json?limit=1").rows.count == 1)
        // A plain role that may run dblink, which reaches other servers.
        let name = "cellar_query_reach"
        let admin = try PostgresListFixture.superuser(database: "postgres")
        try admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", deadline: .seconds(60))
        try admin.execute("CREATE DATABASE \(name)", deadline: .seconds(60))
        defer { try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", deadline: .seconds(60)) }
        let owner = try PostgresListFixture.superuser(database: name)
        try owner.execute(
            """
            CREATE TABLE t (id int8 PRIMARY KEY); INSERT INTO t VALUES (1);
            GRANT CONNECT ON DATABASE \(name) TO \(PostgresListFixture.readerRole); GRANT SELECT ON t TO \(PostgresListFixture.readerRole);
            """, deadline: .seconds(60))
        let reader = fixture.readerURL.replacing("/\(PostgresListFixture.databaseName)", with: "/\(name)")
        #expect(try ListTestServer(serving: Database(postgres: PostgresConnectionInfo(reader))).get("/-/query").status == 200)
        try owner.execute("CREATE EXTENSION dblink", deadline: .seconds(60))
        let withDblink = try ListTestServer(serving: Database(postgres: PostgresConnectionInfo(reader)))
        #expect(try withDblink.get("/-/query?sql=SELECT%201").status == 404)
        #expect(try withDblink.json("/t.json").rows.count == 1)
    }
}
