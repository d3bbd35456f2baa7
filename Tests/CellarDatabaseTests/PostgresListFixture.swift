import CellarDatabase
import Foundation

/// The same tables in a SQLite file and in a PostgreSQL database of the test cluster, each served
/// by a Cellar app, for the parity tests: every value is generated here and inserted into both
/// with bound parameters, so the two hold the same data.
///
/// The PostgreSQL side is set up through the cluster's superuser (its socket, `trust`): a database
/// of its own, loaded by the superuser, and a role that may only connect and SELECT, which the
/// served ``Database`` logs in as. The cluster is C-collated (`cluster.sh`), so text orders as
/// SQLite's BINARY does.
final class PostgresListFixture {
    static let databaseName = "cellar_list_parity"
    static let readerRole = "cellar_list_reader"

    let sqliteFile: TemporaryDatabase
    let sqlite: DatabaseTestServer
    let postgres: ListTestServer
    /// The reader role's URL (its password included) and its password: what no answer may hold.
    let readerURL: String
    let readerPassword: String

    /// The fixture every parity test shares: made once (loading takes a few seconds).
    nonisolated(unsafe) static let shared: Result<PostgresListFixture, any Error> = Result { try PostgresListFixture() }

    init(options: DatabaseOptions = DatabaseOptions()) throws {
        sqliteFile = try TemporaryDatabase(Self.sqliteSchema, name: "parity.sqlite")
        let writer = try sqliteFile.writer()
        for table in Self.tables {
            let placeholders = Array(repeating: "?", count: table.columns).joined(separator: ", ")
            for row in table.rows {
                let statement = try writer.statement("INSERT INTO \(quotedIdentifier(table.name)) VALUES (\(placeholders))")
                try statement.bind(row)
                _ = try statement.allRows()
            }
        }
        try writer.execute(Self.sqliteAfterLoading)

        readerPassword = "pw-" + UUID().uuidString.lowercased()
        let admin = try Self.superuser(database: "postgres")
        // One statement at a time: DROP and CREATE DATABASE cannot run in the transaction of a multi-statement string.
        for statement in [
            "DROP DATABASE IF EXISTS \(Self.databaseName) WITH (FORCE)", "DROP ROLE IF EXISTS \(Self.readerRole)",
            "CREATE ROLE \(Self.readerRole) LOGIN PASSWORD '\(readerPassword)'", "CREATE DATABASE \(Self.databaseName)",
        ] {
            try admin.execute(statement, deadline: .seconds(60))
        }
        let loader = try Self.superuser(database: Self.databaseName)
        try loader.execute(Self.postgresSchema, deadline: .seconds(60))
        for table in Self.tables {
            let placeholders = (1...table.columns).map { "$\($0)" }.joined(separator: ", ")
            for row in table.rows {
                _ = try loader.query(
                    "INSERT INTO \(quotedIdentifier(table.name)) VALUES (\(placeholders))", row.map(Self.parameter), deadline: .seconds(60))
            }
        }
        try loader.execute(Self.postgresAfterLoading, deadline: .seconds(60))
        // SELECT alone: on the tables and views that exist now, and nothing else (not `secrets`, nor `articles`).
        try loader.execute(
            """
            GRANT CONNECT ON DATABASE \(Self.databaseName) TO \(Self.readerRole);
            GRANT SELECT ON producers, wines, grapes, stock, readings, documents, cheap_wines TO \(Self.readerRole);
            CREATE TABLE secrets (id int8 PRIMARY KEY, secret text);
            """, deadline: .seconds(60))

        guard var components = PostgresTestServer.components else { throw FixtureError.noCluster }
        components.user = Self.readerRole
        components.password = readerPassword
        components.path = "/" + Self.databaseName
        guard let url = components.string else { throw FixtureError.noCluster }
        readerURL = url

        sqlite = try DatabaseTestServer(sqliteFile, options: options)
        postgres = try ListTestServer(serving: Database(postgres: PostgresConnectionInfo(readerURL), options: options))
    }

    /// A connection as the cluster's superuser, through its socket (`trust`).
    static func superuser(database: String) throws -> PostgresConnection {
        guard let cluster = PostgresTestServer.cluster, let port = PostgresTestServer.components?.port else { throw FixtureError.noCluster }
        return try PostgresConnection(
            PostgresConnectionInfo("host=\(cluster) port=\(port) user=postgres dbname=\(database)"), deadline: .seconds(30))
    }

    /// A value as a PostgreSQL parameter's text.
    static func parameter(_ value: DatabaseValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let integer): String(integer)
        case .real(let real): "\(real)"
        case .text(let text): text
        case .blob(let bytes): "\\x" + bytes.map { String(format: "%02x", $0) }.joined()
        }
    }

    enum FixtureError: Error {
        /// `CELLAR_TEST_POSTGRES` or `CELLAR_TEST_POSTGRES_CLUSTER` is not set.
        case noCluster
    }

    // MARK: The tables

    static let sqliteSchema = """
        CREATE TABLE producers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT);
        CREATE TABLE wines(
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, producer_id INTEGER REFERENCES producers(id), vintage INTEGER,
            price REAL, notes TEXT, label BLOB, "limit" INTEGER, "we""ird col" TEXT);
        CREATE TABLE grapes(name TEXT PRIMARY KEY NOT NULL, color TEXT);
        CREATE TABLE stock(
            cellar TEXT NOT NULL, bin INTEGER NOT NULL, wine_id INTEGER REFERENCES wines(id), bottles INTEGER,
            PRIMARY KEY (cellar, bin));
        CREATE VIEW cheap_wines AS SELECT id, name, price, vintage FROM wines WHERE price < 20;
        CREATE TABLE readings(id INTEGER PRIMARY KEY, sensor TEXT, value REAL, note TEXT);
        CREATE TABLE documents(id INTEGER PRIMARY KEY, title TEXT, body TEXT, shape TEXT, tags TEXT, markup TEXT, pair TEXT);
        CREATE VIRTUAL TABLE wines_search USING fts5(name, notes, content='wines', content_rowid='id');
        """

    /// `readings`' 2,500 rows, made by the same arithmetic in both (more than one CSV batch of
    /// 1,000), and the wines' full-text index filled.
    static let sqliteAfterLoading = """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
        INSERT INTO readings SELECT i, 's' || (i % 7), CASE WHEN i % 13 = 0 THEN NULL ELSE (i % 97) * 0.5 END,
            CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN 'a, "quoted" note' ELSE 'note ' || (i % 11) END FROM n;
        INSERT INTO wines_search(wines_search) VALUES ('rebuild');
        """

    static let postgresAfterLoading = """
        INSERT INTO readings SELECT i, 's' || (i % 7), CASE WHEN i % 13 = 0 THEN NULL ELSE (i % 97) * 0.5 END,
            CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN 'a, "quoted" note' ELSE 'note ' || (i % 11) END FROM generate_series(1, 2500) AS n(i);
        -- The wines' search: an index over to_tsvector, in the simple configuration (no stemming), as FTS5's unicode61 reads words.
        CREATE INDEX wines_search ON wines USING gin (to_tsvector('simple', coalesce(name, '') || ' ' || coalesce(notes, '')));
        -- A table with a tsvector column, which the reader role may not read: served by the superuser (PostgreSQL's own search tests).
        CREATE TABLE articles(
            id int8 PRIMARY KEY, title text NOT NULL, body text NOT NULL,
            document tsvector GENERATED ALWAYS AS (to_tsvector('english', title || ' ' || body)) STORED);
        INSERT INTO articles(id, title, body) SELECT i, 'Article ' || i,
            CASE i % 3 WHEN 0 THEN 'the cellar door' WHEN 1 THEN 'wine cellars' ELSE 'a door' END FROM generate_series(1, 40) AS n(i);
        """

    /// The same tables in PostgreSQL's types: `int8`, `float8`, `text`, `bytea`.
    static let postgresSchema = """
        CREATE TABLE producers(id int8 PRIMARY KEY, name text NOT NULL, country text);
        CREATE TABLE wines(
            id int8 PRIMARY KEY, name text NOT NULL, producer_id int8 REFERENCES producers(id), vintage int8,
            price float8, notes text, label bytea, "limit" int8, "we""ird col" text);
        CREATE TABLE grapes(name text PRIMARY KEY NOT NULL, color text);
        CREATE TABLE stock(
            cellar text NOT NULL, bin int8 NOT NULL, wine_id int8 REFERENCES wines(id), bottles int8,
            PRIMARY KEY (cellar, bin));
        CREATE VIEW cheap_wines AS SELECT id, name, price, vintage FROM wines WHERE price < 20;
        CREATE TABLE readings(id int8 PRIMARY KEY, sensor text, value float8, note text);
        -- Types SQLite keeps as text: varchar borrows text's order; json, point and xml have none
        -- (lists sort and compare them by their text), text[] has its own; so has a composite, but
        -- its values cannot be bound as parameters, so it is compared by its text too.
        CREATE TYPE pair AS (n int8, word text);
        CREATE TABLE documents(id int8 PRIMARY KEY, title varchar(40), body json, shape point, tags text[], markup xml, pair pair);
        """

    /// Hostile text: markup, quotes, SQL, percent signs, commas, slashes, Unicode.
    static let hostile = [
        "<script>alert(1)</script>", "'; DROP TABLE wines; --", "Bodega \"Q\"", "100% / a,b", "Grüner Veltliner ✨", "\\x00ff", "a?b $1",
    ]

    static let tables: [(name: String, columns: Int, rows: [[DatabaseValue]])] = [
        (
            "producers", 3,
            [
                [1, "Domaine A", "France"], [2, "Weingut Ä", "Österreich"], [3, "<b>Bold</b> & Co", "USA"], [4, "Bodega \"Q\"", .null],
                [5, "'; DROP TABLE producers; --", "España"],
            ]
        ),
        ("wines", 9, (1...150).map(wine)),
        ("documents", 7, (1...40).map(document)),
        (
            "grapes", 2,
            [
                ["Pinot Noir", "red"], ["a,b", "white"], ["100%", "red"], ["x/y", "white"], ["Grüner Veltliner", "white"],
                ["<b>x</b>", "red"], [" lead space", .null], ["50%2C", "red"], ["q?a#b&c=d", "white"], ["%", "red"], ["7", "white"],
                ["'; --", .null],
            ]
        ),
        (
            "stock", 4,
            (1...60).map { i -> [DatabaseValue] in
                let cellars: [DatabaseValue] = ["North, 1", "100%", "a/b", "Cave ✨", "%2C,%25"]
                return [cellars[i % 5], .integer(Int64(i % 12)), .integer(Int64(1 + (i * 7) % 150)), i % 6 == 0 ? .null : .integer(Int64(i % 4))]
            }
        ),
    ]

    /// Document `i`: values whose text each type keeps as it was written, so both engines hold the
    /// same text; NULLs and ties in every column.
    static func document(_ i: Int) -> [DatabaseValue] {
        let bodies: [DatabaseValue] = [
            .text("{\"n\": \(i % 5), \"html\": \"<b>x</b>\"}"), .text("[1, 2, \(i % 3)]"), "{\"a\":1}", .null, "\"text\"",
            .text("{\"n\": \(i % 2)}"),
        ]
        let tags: [DatabaseValue] = ["{a,b}", "{}", .null, "{b}", "{\"a b\",c}"]
        return [
            .integer(Int64(i)), i % 8 == 0 ? .null : .text("Doc \(i % 6)"), bodies[i % bodies.count],
            i % 7 == 0 ? .null : .text("(\(i % 4),\(i % 3))"), tags[i % tags.count], i % 9 == 0 ? .null : .text("<m>\(i % 6)</m>"),
            i % 10 == 0 ? .null : .text("(\(i % 3),w\(i % 4))"),
        ]
    }

    /// Wine `i`: NULLs and ties in most columns, hostile names, blobs (empty ones too).
    static func wine(_ i: Int) -> [DatabaseValue] {
        let name: DatabaseValue = i <= hostile.count ? .text(hostile[i - 1]) : .text("Wine \(i)")
        let notes: [DatabaseValue] = ["crisp citrus finish", "dark cherry and oak", "oak, vanilla and <b>bold</b> tannins", .null]
        let label: DatabaseValue = i % 10 == 0 ? .blob([0, 255, 16]) : i % 10 == 5 ? .blob([]) : .null
        return [
            .integer(Int64(i)), name, i % 9 == 0 ? .null : .integer(Int64(1 + i % 5)), i % 7 == 0 ? .null : .integer(Int64(2000 + (i * 37) % 6)),
            i % 11 == 0 ? .null : .real(Double((i * 53) % 40) + 0.25), notes[i % 4], label, .integer(Int64(i % 3)), .text("v\(i % 4)"),
        ]
    }
}
