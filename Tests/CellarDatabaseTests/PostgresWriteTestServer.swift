import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP

/// A PostgreSQL database of the test cluster served `--writable` behind sign-in, as a role of its
/// own whose grants decide: SELECT, INSERT, UPDATE and DELETE on the tables it may write, SELECT
/// alone on `locked`. alice may insert, update and delete everywhere (``token`` is her bearer
/// token), bob may only view. The superuser (``admin``) made the tables and reads them back.
final class PostgresWriteTestServer: @unchecked Sendable {
    static let databaseName = "cellar_write"
    static let role = "cellar_write_role"
    static let key = "a-postgres-write-test-key-0123456789abcdef"

    static let sql = """
        CREATE TABLE authors(id int8 PRIMARY KEY, name text NOT NULL UNIQUE);
        CREATE TABLE books(
            id serial PRIMARY KEY, title text NOT NULL, year int4 CHECK (year > 0),
            author_id int8 REFERENCES authors(id), isbn text UNIQUE, notes text DEFAULT 'none',
            shout text GENERATED ALWAYS AS (upper(title)) STORED, cover bytea);
        CREATE TABLE editions(
            book_id int4 NOT NULL REFERENCES books(id) ON DELETE CASCADE, number int4 NOT NULL, label text,
            PRIMARY KEY (book_id, number));
        CREATE TABLE plain(a text, b int4);
        CREATE TABLE locked(id int8 PRIMARY KEY, t text);
        CREATE TABLE queue(id int8 PRIMARY KEY, name text NOT NULL, position int8 NOT NULL UNIQUE);
        CREATE VIEW titles AS SELECT title FROM books;
        INSERT INTO authors VALUES (1, 'Le Guin'), (2, 'Herbert');
        INSERT INTO books(title, year, author_id) VALUES ('Dune', 1965, 2);
        INSERT INTO editions VALUES (1, 1, 'first'), (1, 2, 'second');
        INSERT INTO plain VALUES ('x', 1);
        INSERT INTO locked VALUES (1, 'ice');
        INSERT INTO queue VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3), (4, 'd', 10);
        GRANT SELECT, INSERT, UPDATE, DELETE ON authors, books, editions, plain, queue TO \(role);
        GRANT SELECT ON locked, titles TO \(role);
        GRANT USAGE ON SEQUENCE books_id_seq TO \(role);
        """

    /// The superuser, in the test's database.
    let admin: PostgresConnection
    /// The role's URL, its password included.
    let url: String
    let app: App
    let server: Server
    let token: String

    /// A fresh database, made again from ``sql``, and a server over it.
    static func fresh(writable: Bool = true, timeLimit: Double = 1) throws -> PostgresWriteTestServer {
        let postgres = try PostgresListFixture.superuser(database: "postgres")
        let password = "pw-" + UUID().uuidString.lowercased()
        for statement in [
            "DROP DATABASE IF EXISTS \(databaseName) WITH (FORCE)", "DROP ROLE IF EXISTS \(role)",
            "CREATE ROLE \(role) LOGIN PASSWORD '\(password)'", "CREATE DATABASE \(databaseName)",
        ] {
            try postgres.execute(statement, deadline: .seconds(60))
        }
        let admin = try PostgresListFixture.superuser(database: databaseName)
        try admin.execute(sql, deadline: .seconds(60))
        guard var components = PostgresTestServer.components else { throw PostgresListFixture.FixtureError.noCluster }
        components.user = role
        components.password = password
        components.path = "/" + databaseName
        guard let url = components.string else { throw PostgresListFixture.FixtureError.noCluster }
        return try PostgresWriteTestServer(admin: admin, url: url, writable: writable, timeLimit: timeLimit)
    }

    /// Another server over `other`'s database, as a second replica would be.
    convenience init(sharing other: PostgresWriteTestServer, requiresIfMatch: Bool = false, timeLimit: Double = 1) throws {
        try self.init(admin: other.admin, url: other.url, writable: true, requiresIfMatch: requiresIfMatch, timeLimit: timeLimit)
    }

    private init(admin: PostgresConnection, url: String, writable: Bool, requiresIfMatch: Bool = false, timeLimit: Double) throws {
        self.admin = admin
        self.url = url
        var quiet = Logger(label: "cellar-postgres-write-test")
        quiet.logLevel = .critical
        app = App(publicDirectory: ListTestServer.publicDirectory, logger: quiet)
        app.showsErrorDetails = true
        let hash = try PasswordHash.make(password: "pw-alice-1", logCost: 10)
        app.access.accounts["alice"] = Account(passwordHash: hash)
        app.access.accounts["bob"] = Account(passwordHash: hash)
        for action in [Action.insert, .update, .delete] { app.access.permissions.grant(action, on: "*", to: "alice") }
        let keys = try SessionKeys(text: Self.key)
        app.signIn.keys = keys
        var options = DatabaseOptions()
        options.writable = writable
        options.requiresIfMatch = requiresIfMatch
        options.timeLimit = timeLimit
        // No poll helps a watcher: a change through Cellar must reach it at once.
        options.changePollInterval = 3600
        var configuration = DatabaseConfiguration()
        var queue = DatabaseConfiguration.Table()
        queue.order = "position"
        configuration.tables["queue"] = queue
        try app.mount(Database(postgres: PostgresConnectionInfo(url), options: options), configuration: configuration)
        let later = Int64(Date().timeIntervalSince1970) + 3600
        let all = try ["view", "insert", "update", "delete"].map(BearerToken.Scope.init)
        token = try BearerToken.make(actor: "alice", scopes: all, expiresAt: later, keys: keys)
        let configurationOfServer = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 4, errorRenderer: app.errorRenderer)
        server = Server(configuration: configurationOfServer, responder: app.makeResponder(), logger: app.logger, observer: app.metrics)
        try server.start()
    }

    deinit { server.stop(gracePeriod: .seconds(2)) }

    /// A POST of `body` (JSON) as alice.
    func post(_ target: String, _ body: String, headers: [(String, String)] = []) throws -> TestHTTPResponse {
        let all = [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")] + headers
        return try TestHTTPClient.send("POST", target, port: server.port, headers: all, body: Array(body.utf8), timeout: .seconds(60))
    }

    /// A form's POST, same-site, with `cookie`.
    func postForm(_ target: String, _ form: String, cookie: String?) throws -> TestHTTPResponse {
        var headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "same-origin"), ("Accept", "text/html")]
        if let cookie { headers.append(("Cookie", cookie)) }
        return try TestHTTPClient.send("POST", target, port: server.port, headers: headers, body: Array(form.utf8), timeout: .seconds(60))
    }

    func get(_ target: String, headers: [(String, String)] = []) throws -> TestHTTPResponse {
        try TestHTTPClient.send("GET", target, port: server.port, headers: headers, timeout: .seconds(60))
    }

    /// The session cookie of `account`, signed in.
    func signIn(_ account: String) throws -> String {
        let response = try TestHTTPClient.send(
            "POST", "/-/signin", port: server.port, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("account=\(account)&password=pw-alice-1".utf8), timeout: .seconds(60))
        guard let cookie = response.headers["Set-Cookie"]?.split(separator: ";").first else { throw PostgresListFixture.FixtureError.noCluster }
        return String(cookie)
    }

    /// The row's version, as its page's `ETag` gives it.
    func version(_ rowPath: String) throws -> String {
        String((try get(rowPath).headers["ETag"] ?? "").dropFirst().dropLast())
    }

    /// Every row of `sql`, read by the superuser.
    func rows(_ sql: String) throws -> [[DatabaseValue]] {
        try admin.query(sql, deadline: .seconds(30)).rows
    }
}
