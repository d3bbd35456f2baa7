import CellarDatabase
import Foundation
import Testing

/// The schema, incoming references, labels and NULL on row pages over PostgreSQL: what SQLite's
/// pragmas say of the same tables, in PostgreSQL's own types; its indexes as `pg_index` has them;
/// and a migration followed without a restart.
extension PostgresListTests {
    @Test(arguments: ["producers", "wines", "grapes", "stock", "readings"])
    func theSchemaSaysWhatSQLitesSays(table: String) throws {
        let fixture = try fixture
        let sqlite = try fixture.sqlite.json("/\(table)/-/schema.json")
        let postgres = try fixture.postgres.json("/\(table)/-/schema.json")
        // A primary key's columns are NOT NULL in PostgreSQL, declared so or not; in SQLite only as declared.
        func shape(_ json: JSON) -> [[JSON?]] {
            (json["columns"]?.array ?? []).map { [$0["name"], $0["primaryKey"] == .null ? $0["notNull"] : nil, $0["primaryKey"], $0["generated"]] }
        }
        #expect(shape(sqlite) == shape(postgres))
        #expect(
            sqlite["foreignKeys"]?.array.map { [$0["columns"], $0["table"], $0["referencedColumns"], $0["href"]] }
                == postgres["foreignKeys"]?.array.map { [$0["columns"], $0["table"], $0["referencedColumns"], $0["href"]] })
        #expect(sqlite["primaryKey"] == postgres["primaryKey"])
        // PostgreSQL's own: its indexes are pg_index's, and a primary key has one.
        let indexes = try PostgresListFixture.superuser(database: PostgresListFixture.databaseName).query(
            """
            SELECT c.relname::text FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid
            WHERE i.indrelid = $1::regclass ORDER BY 1
            """, [table], deadline: .seconds(30))
        let names = (0..<indexes.count).map { indexes.value(row: $0, column: 0) }
        #expect(postgres["indexes"]?.array.map { $0["name"]?.string } == names.map { if case .text(let name) = $0 { name } else { nil } })
        #expect(try fixture.postgres.get("/\(table)/-/schema").status == 200)
    }

    @Test func referencesLabelsAndNullOnRowPagesAreSQLites() throws {
        for target in ["/producers/2", "/producers/2.json", "/wines/3", "/wines/3.json", "/wines/9.json", "/stock/100%2525,1.json", "/grapes/7.json"]
        {
            try expectSame(target)
        }
        let producer = try fixture.postgres.json("/producers/2.json")
        let references = producer["references"]?.array ?? []
        #expect(references.map { $0["list"]?.string } == ["wines"])
        let count = try fixture.sqlite.reference("SELECT count(*) FROM wines WHERE producer_id = 2")[0][0]
        #expect(references.first?["count"] == count.json)
        // Wine 3's notes are NULL: null in the fields, not the text.
        let wine = try fixture.postgres.json("/wines/3.json")
        #expect(wine["fields"]?.array.first { $0["label"]?.string == "notes" }?["value"] == .null)
    }

    @Test func aMigrationIsFollowedWithoutARestart() throws {
        guard let cluster = PostgresTestServer.cluster, let port = PostgresTestServer.components?.port else { return }
        let name = "cellar_schema_migration"
        let admin = try PostgresListFixture.superuser(database: "postgres")
        try admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", deadline: .seconds(60))
        try admin.execute("CREATE DATABASE \(name)", deadline: .seconds(60))
        let writer = try PostgresListFixture.superuser(database: name)
        try writer.execute(
            """
            CREATE TABLE teams(id int8 PRIMARY KEY, name text);
            CREATE TABLE players(id int8 PRIMARY KEY, team_id int8 REFERENCES teams(id), score int8);
            INSERT INTO teams SELECT i, 'Team ' || i FROM generate_series(1, 5) AS n(i);
            INSERT INTO players SELECT i, 1 + i % 5, i FROM generate_series(1, 20) AS n(i);
            """, deadline: .seconds(60))
        let server = try ListTestServer(
            serving: Database(postgres: PostgresConnectionInfo("host=\(cluster) port=\(port) user=postgres dbname=\(name)")))
        #expect(try server.get("/players.json?sort=score").status == 200)
        try writer.execute("ALTER TABLE teams ADD COLUMN city text DEFAULT 'Paris'", deadline: .seconds(60))
        #expect(try server.json("/teams/1.json")["item"]?["city"]?.string == "Paris")
        try writer.execute("ALTER TABLE players RENAME COLUMN score TO points", deadline: .seconds(60))
        let players = try server.json("/players.json?sort=-points&limit=3")
        #expect(players.rows.map { $0["id"]?.string } == ["20", "19", "18"])
        #expect(try server.get("/players?score__gt=1").status == 400)
        #expect(try server.json("/teams/2.json")["references"]?.array.first?["count"] == .integer(4))
        try writer.execute("DROP TABLE players", deadline: .seconds(60))
        #expect(try server.get("/players").status == 404)
        #expect(try server.json("/teams/2.json")["references"] == nil)
    }
}
