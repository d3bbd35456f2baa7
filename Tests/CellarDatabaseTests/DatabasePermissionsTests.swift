import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP
import Testing

/// A database's tables under sign-in's permissions, by table name: `view` on a table's list, its
/// JSON and rows; `query` on the SQL page, open to anyone only while every table is.
@Suite struct DatabasePermissionsTests {
    static let sql = """
        CREATE TABLE notes(id INTEGER PRIMARY KEY, t TEXT); INSERT INTO notes VALUES (1, 'a note');
        CREATE TABLE secrets(id INTEGER PRIMARY KEY, s TEXT); INSERT INTO secrets VALUES (1, 'a secret');
        """

    final class Served {
        let database: TemporaryDatabase
        let app: App
        let server: Server

        init(_ configure: (App) throws -> Void) throws {
            database = try TemporaryDatabase(DatabasePermissionsTests.sql)
            var quiet = Logger(label: "cellar-database-test")
            quiet.logLevel = .warning
            app = App(publicDirectory: ListTestServer.publicDirectory, logger: quiet)
            try configure(app)
            try app.mount(Database.open(database.path))
            let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, errorRenderer: app.errorRenderer)
            server = Server(configuration: configuration, responder: app.makeResponder(), logger: app.logger, observer: app.metrics)
            try server.start()
        }

        deinit { server.stop(gracePeriod: .seconds(2)) }

        func status(_ target: String, cookie: String? = nil) throws -> Int {
            let headers = [("Accept", "application/json")] + (cookie.map { [("Cookie", $0)] } ?? [])
            return try TestHTTPClient.send("GET", target, port: server.port, headers: headers, timeout: .seconds(60)).status
        }

        func signIn(_ account: String, _ password: String) throws -> String {
            let response = try TestHTTPClient.send(
                "POST", "/-/signin", port: server.port, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("account=\(account)&password=\(password)".utf8), timeout: .seconds(60))
            return String(try #require(response.headers["Set-Cookie"]).split(separator: ";")[0])
        }
    }

    @Test func aTableByNameAndTheSQLPage() throws {
        let served = try Served { app in
            app.access.accounts["alice"] = Account(passwordHash: try PasswordHash.make(password: "pw-alice-1", logCost: 10))
            app.access.permissions.grant(.view, on: "secrets", to: "alice")
            app.signIn.keys = try SessionKeys(text: "a-database-test-key-0123456789abcdefghij")
        }
        #expect(try served.status("/notes.json") == 200)
        #expect(try served.status("/secrets.json") == 401)
        #expect(try served.status("/secrets/1.json") == 401)
        // Not every table is anyone's: the SQL page is no one's but by a grant.
        #expect(try served.status("/-/query.json?sql=SELECT+1") == 401)
        let alice = try served.signIn("alice", "pw-alice-1")
        #expect(try served.status("/secrets.json", cookie: alice) == 200)
        #expect(try served.status("/-/query.json?sql=SELECT+1", cookie: alice) == 403)
    }

    @Test func theSQLPageIsAnyonesWhileEveryTableIs() throws {
        let served = try Served { app in
            app.access.permissions.grant(.update, on: "notes", to: "alice")
            app.signIn.keys = try SessionKeys(text: "a-database-test-key-0123456789abcdefghij")
        }
        #expect(try served.status("/secrets.json") == 200)
        #expect(try served.status("/-/query.json?sql=SELECT+1") == 200)
    }
}
