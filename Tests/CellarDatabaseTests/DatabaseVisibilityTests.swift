import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP
import Testing

/// A table its actor may not view is absent, not only refused: from the index and its column
/// names, the navigation, the labels of the foreign keys that point to it, the incoming
/// references counted on other rows, facets' labels, the schema's pages and what SQL may read.
@Suite struct DatabaseVisibilityTests {
    static let sql = """
        CREATE TABLE secrets(id INTEGER PRIMARY KEY, codename TEXT, note_id INTEGER REFERENCES notes(id));
        CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT, secret_id INTEGER REFERENCES secrets(id));
        INSERT INTO secrets VALUES (7, 'Nightingale', 1);
        INSERT INTO notes VALUES (1, 'a note', 7);
        CREATE VIEW secret_names AS SELECT codename FROM secrets;
        """

    final class Served {
        let database: TemporaryDatabase
        let app: App
        let server: Server

        init() throws {
            database = try TemporaryDatabase(DatabaseVisibilityTests.sql)
            var quiet = Logger(label: "cellar-database-test")
            quiet.logLevel = .warning
            app = App(publicDirectory: ListTestServer.publicDirectory, logger: quiet)
            app.access.accounts["alice"] = Account(passwordHash: try PasswordHash.make(password: "pw-alice-1", logCost: 10))
            app.access.accounts["bob"] = Account(passwordHash: try PasswordHash.make(password: "pw-bob-12", logCost: 10))
            app.access.permissions.grant(.view, on: "secrets", to: "alice")
            app.access.permissions.grant(.view, on: "secret_names", to: "alice")
            app.access.permissions.grant(.query, on: Permissions.everyList, to: Permissions.signedIn)
            app.signIn.keys = try SessionKeys(text: "a-database-test-key-0123456789abcdefghij")
            try app.mount(Database.open(database.path))
            let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, errorRenderer: app.errorRenderer)
            server = Server(configuration: configuration, responder: app.makeResponder(), logger: app.logger, observer: app.metrics)
            try server.start()
        }

        deinit { server.stop(gracePeriod: .seconds(2)) }

        func get(_ target: String, cookie: String?, json: Bool = false) throws -> TestHTTPResponse {
            let headers = [("Accept", json ? "application/json" : "text/html")] + (cookie.map { [("Cookie", $0)] } ?? [])
            return try TestHTTPClient.send("GET", target, port: server.port, headers: headers, timeout: .seconds(60))
        }

        func signIn(_ account: String, _ password: String) throws -> String {
            let response = try TestHTTPClient.send(
                "POST", "/-/signin", port: server.port, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("account=\(account)&password=\(password)".utf8), timeout: .seconds(60))
            return String(try #require(response.headers["Set-Cookie"]).split(separator: ";")[0])
        }
    }

    /// Every page an actor who may not view `secrets` reads, with what each must not hold.
    static let pages = [
        "/", "/notes", "/notes/1", "/notes?facet=secret_id", "/notes/-/schema", "/notes/-/schema.json", "/notes.json?facet=secret_id",
        "/notes/1.json",
    ]

    @Test func aTableOneMayNotViewIsNamedNowhere() throws {
        let served = try Served()
        let bob = try served.signIn("bob", "pw-bob-12")
        for cookie in [nil, bob] {
            for target in Self.pages {
                let response = try served.get(target, cookie: cookie, json: target.contains(".json"))
                #expect(response.status == 200, "\(target): \(response.status) \(response.text.prefix(300))")
                for word in ["secrets", "Nightingale", "codename", "secret_names"] {
                    #expect(!response.text.contains(word), "\(target) names \(word) for \(cookie == nil ? "a visitor" : "bob")")
                }
            }
            // The foreign key's bare value stays.
            #expect(try served.get("/notes", cookie: cookie).text.contains(">7<"))
        }
    }

    @Test func anActorWhoMayViewItSeesItsLabelsCountsAndReferences() throws {
        let served = try Served()
        let alice = try served.signIn("alice", "pw-alice-1")
        let index = try served.get("/", cookie: alice).text
        #expect(index.contains("codename"))
        #expect(try served.get("/notes", cookie: alice).text.contains("Nightingale"))
        #expect(try served.get("/notes?facet=secret_id", cookie: alice).text.contains("Nightingale"))
        #expect(try served.get("/notes/1", cookie: alice).text.contains("1 row in secrets references"))
        #expect(try served.get("/notes/-/schema", cookie: alice).text.contains("secrets.id"))
        #expect(try served.get("/notes/-/schema.json", cookie: alice, json: true).text.contains("\"table\":\"secrets\""))
    }

    @Test func sqlReadsNoTableItsActorMayNotView() throws {
        let served = try Served()
        let bob = try served.signIn("bob", "pw-bob-12")
        let alice = try served.signIn("alice", "pw-alice-1")
        func run(_ sql: String, _ cookie: String) throws -> TestHTTPResponse {
            try served.get("/-/query.json?sql=" + percentEncoded(sql), cookie: cookie, json: true)
        }
        #expect(try run("SELECT body FROM notes", bob).status == 200)
        for sql in [
            "SELECT * FROM secrets", "SELECT codename FROM secret_names",
            "SELECT n.body, s.codename FROM notes n JOIN secrets s ON s.id = n.secret_id",
            "SELECT * FROM (SELECT codename FROM secrets)", "SELECT name FROM sqlite_master", "SELECT * FROM pragma_table_info('secrets')",
            "PRAGMA table_info(secrets)",
        ] {
            let refused = try run(sql, bob)
            #expect(refused.status == 403, "\(sql): \(refused.status) \(refused.text.prefix(300))")
            #expect(!refused.text.contains("Nightingale"), "\(sql)")
        }
        #expect(try run("SELECT * FROM secrets", bob).text.contains("may not view"))
        #expect(try run("SELECT * FROM secrets", alice).text.contains("Nightingale"))
        #expect(try run("SELECT codename FROM secret_names", alice).status == 200)
        // The CSV is the same statement's.
        #expect(try served.get("/-/query.csv?sql=" + percentEncoded("SELECT * FROM secrets"), cookie: bob).status == 403)
    }
}
