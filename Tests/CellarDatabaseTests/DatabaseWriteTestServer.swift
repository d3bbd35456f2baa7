import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP

/// A SQLite file served `--writable` behind sign-in: alice may insert, update and delete on every
/// table (``token`` is her bearer token, ``viewToken`` one that may only view), bob may only view.
/// Its properties are constants, so clients on several threads may share it.
final class DatabaseWriteTestServer: @unchecked Sendable {
    static let sql = """
        CREATE TABLE authors(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE books(
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER CHECK (year > 0),
            author_id INTEGER REFERENCES authors(id), isbn TEXT UNIQUE, notes TEXT DEFAULT 'none',
            shout TEXT GENERATED ALWAYS AS (upper(title)) VIRTUAL);
        CREATE TABLE editions(
            book_id INTEGER NOT NULL REFERENCES books(id), number INTEGER NOT NULL, label TEXT,
            PRIMARY KEY (book_id, number)) WITHOUT ROWID;
        CREATE TABLE tags(name TEXT PRIMARY KEY, n INTEGER);
        CREATE TABLE plain(a TEXT, b INTEGER);
        CREATE TABLE counts(id INTEGER PRIMARY KEY, n INTEGER) STRICT;
        CREATE TABLE frozen(id INTEGER PRIMARY KEY, t TEXT);
        CREATE VIEW titles AS SELECT title FROM books;
        INSERT INTO authors VALUES (1, 'Le Guin'), (2, 'Herbert');
        INSERT INTO books(id, title, year, author_id) VALUES (1, 'Dune', 1965, 2);
        INSERT INTO editions VALUES (1, 1, 'first'), (1, 2, 'second');
        INSERT INTO tags VALUES ('a,b', 1), ('x~y', 2);
        INSERT INTO plain VALUES ('x', 1);
        INSERT INTO frozen VALUES (1, 'ice');
        """

    static let key = "a-database-write-test-key-0123456789abcdef"

    let database: TemporaryDatabase
    let app: App
    let server: Server
    let token: String
    let viewToken: String

    /// A second server on `other`'s file, as another process serving it would be.
    convenience init(sharing other: DatabaseWriteTestServer) throws {
        try self.init(database: other.database)
    }

    /// `logger`: the app's and the server's (by default one that drops all but warnings).
    convenience init(
        sql: String = DatabaseWriteTestServer.sql, writable: Bool = true, configuration: DatabaseConfiguration? = nil, logger: Logger? = nil,
        configure: (inout DatabaseOptions) -> Void = { _ in }, prepare: (App) -> Void = { _ in }
    ) throws {
        try self.init(
            database: TemporaryDatabase(sql), sql: sql, writable: writable, configuration: configuration, logger: logger, configure: configure,
            prepare: prepare)
    }

    private init(
        database: TemporaryDatabase, sql: String = DatabaseWriteTestServer.sql, writable: Bool = true,
        configuration given: DatabaseConfiguration? = nil, logger: Logger? = nil, configure: (inout DatabaseOptions) -> Void = { _ in },
        prepare: (App) -> Void = { _ in }
    ) throws {
        self.database = database
        var quiet = Logger(label: "cellar-database-write-test")
        quiet.logLevel = .warning
        app = App(publicDirectory: ListTestServer.publicDirectory, logger: logger ?? quiet)
        prepare(app)
        app.showsErrorDetails = true
        let hash = try PasswordHash.make(password: "pw-alice-1", logCost: 10)
        app.access.accounts["alice"] = Account(passwordHash: hash)
        app.access.accounts["bob"] = Account(passwordHash: hash)
        for action in [Action.insert, .update, .delete] { app.access.permissions.grant(action, on: "*", to: "alice") }
        let keys = try SessionKeys(text: Self.key)
        app.signIn.keys = keys
        var options = DatabaseOptions()
        options.writable = writable
        options.changePollInterval = 3600
        configure(&options)
        var configuration = given ?? DatabaseConfiguration()
        if sql == Self.sql {
            var frozen = DatabaseConfiguration.Table()
            frozen.writable = false
            configuration.tables["frozen"] = frozen
        }
        try app.mount(Database(path: database.path, options: options), configuration: configuration)
        let later = Int64(Date().timeIntervalSince1970) + 3600
        let all = try ["view", "insert", "update", "delete"].map(BearerToken.Scope.init)
        token = try BearerToken.make(actor: "alice", scopes: all, expiresAt: later, keys: keys)
        viewToken = try BearerToken.make(actor: "alice", scopes: [BearerToken.Scope("view")], expiresAt: later, keys: keys)
        let server = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, errorRenderer: app.errorRenderer)
        self.server = Server(configuration: server, responder: app.makeResponder(), logger: app.logger, observer: app.metrics)
        try self.server.start()
    }

    deinit { server.stop(gracePeriod: .seconds(2)) }

    /// A POST of `body` (JSON) as `token`'s actor (nil: no one).
    func post(_ target: String, _ body: String, token: String?, headers: [(String, String)] = []) throws -> TestHTTPResponse {
        var all = [("Content-Type", "application/json")] + headers
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        return try TestHTTPClient.send("POST", target, port: server.port, headers: all, body: Array(body.utf8), timeout: .seconds(60))
    }

    /// A POST as alice.
    func post(_ target: String, _ body: String, headers: [(String, String)] = []) throws -> TestHTTPResponse {
        try post(target, body, token: token, headers: headers)
    }

    func get(_ target: String, headers: [(String, String)] = []) throws -> TestHTTPResponse {
        try TestHTTPClient.send("GET", target, port: server.port, headers: headers, timeout: .seconds(60))
    }

    /// Every row of `sql`, read through a connection of the test's own.
    func rows(_ sql: String) throws -> [[DatabaseValue]] {
        try SQLiteConnection(path: database.path).rows(sql)
    }

    /// The file's own check of itself: `ok` when nothing is broken.
    func integrityCheck() throws -> [[DatabaseValue]] {
        try rows("PRAGMA integrity_check")
    }
}

extension TestHTTPResponse {
    /// The body as JSON.
    var json: JSON {
        get throws { try JSON.parse(body) }
    }

    /// The write API's error messages, joined.
    var errors: String {
        guard let errors = try? json["errors"], case .array(let list) = errors else { return "" }
        return list.compactMap(\.string).joined(separator: " | ")
    }
}
