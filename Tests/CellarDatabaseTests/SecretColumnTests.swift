import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Logging
import Testing

/// Secret columns (YAML `secret:`): written through forms and the write API, never read back —
/// every answer and every log line is scanned for the stored values.
@Suite struct SecretColumnTests {
    static let key = "S3CR3T-zq81-KEY"
    static let pin = "987651234"
    static let sql = """
        CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT NOT NULL, api_key TEXT NOT NULL, pin INTEGER, city TEXT);
        CREATE VIRTUAL TABLE users_fts USING fts5(name, content='users', content_rowid='id');
        CREATE TABLE devices(id INTEGER PRIMARY KEY, label TEXT, token TEXT);
        INSERT INTO users VALUES (1, 'ada', '\(key)', \(pin), 'Paris'), (2, 'bob', 'other-\(key)', 1, 'Oslo');
        INSERT INTO users_fts(rowid, name) SELECT id, name FROM users;
        CREATE TRIGGER users_ai AFTER INSERT ON users BEGIN INSERT INTO users_fts(rowid, name) VALUES (new.id, new.name); END;
        CREATE TRIGGER users_ad AFTER DELETE ON users BEGIN
            INSERT INTO users_fts(users_fts, rowid, name) VALUES ('delete', old.id, old.name); END;
        CREATE TRIGGER users_au AFTER UPDATE ON users BEGIN
            INSERT INTO users_fts(users_fts, rowid, name) VALUES ('delete', old.id, old.name);
            INSERT INTO users_fts(rowid, name) VALUES (new.id, new.name); END;
        INSERT INTO devices VALUES (1, 'phone', 'tok-\(key)');
        """

    static func configuration() -> DatabaseConfiguration {
        var configuration = DatabaseConfiguration()
        var users = DatabaseConfiguration.Table()
        users.secret = ["api_key", "pin"]
        configuration.tables["users"] = users
        var devices = DatabaseConfiguration.Table()
        devices.secret = ["token"]
        devices.layout = .cells
        configuration.tables["devices"] = devices
        return configuration
    }

    /// The served file, and every log line the app and server wrote.
    static func serve() throws -> (DatabaseWriteTestServer, LogLines) {
        let lines = LogLines()
        var logger = Logger(label: "secret-test") { _ in LogLines.Handler(lines: lines) }
        logger.logLevel = .trace
        return (try DatabaseWriteTestServer(sql: sql, configuration: configuration(), logger: logger), lines)
    }

    /// Fails when a response carries a secret, in its headers or body.
    static func expectNoSecret(_ response: TestHTTPResponse, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = response.headerFields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n" + response.text
        #expect(!text.contains("S3CR3T"), "\(what) carries the secret key: \(text.prefix(300))", sourceLocation: sourceLocation)
        #expect(!text.contains(pin), "\(what) carries the secret pin", sourceLocation: sourceLocation)
    }

    @Test func noReadingAnswerCarriesASecret() throws {
        let (served, logs) = try Self.serve()
        let json = [("Accept", "application/json")]
        for target in [
            "/users", "/users?_size=1", "/users.json", "/users.csv", "/users/1", "/users/1.json", "/users/-/schema", "/users/-/schema.json",
            "/users?q=ada", "/users.json?q=ada", "/devices", "/devices.json", "/devices/1", "/devices.csv", "/", "/users?facet=city",
        ] {
            let page = try served.get(target)
            #expect(page.status == 200, "\(target): \(page.status) \(page.text.prefix(300))")
            Self.expectNoSecret(page, target)
            Self.expectNoSecret(try served.get(target, headers: json), target + " as JSON")
        }
        // The other columns are all there, and the schema says the secret ones exist.
        let row = try served.get("/users/1.json").text
        #expect(row.contains("Paris") && row.contains("ada"))
        #expect(!row.contains("api_key") && !row.contains("\"pin\""))
        #expect(try served.get("/users.csv").text.hasPrefix("id,name,city"))
        let schema = try served.get("/users/-/schema").text
        #expect(schema.contains("api_key") && schema.contains(", secret"))
        #expect(try served.get("/users/-/schema.json").text.contains("\"secret\":true"))
        // Each row's version does not hash the secret: its ETag cannot test a guess.
        let before = try #require(try served.get("/users/1").headers["ETag"])
        try SQLiteConnection(path: served.database.path, readOnly: false).execute("UPDATE users SET api_key = 'changed-elsewhere' WHERE id = 1")
        #expect(try served.get("/users/1").headers["ETag"] == before)
        #expect(!logs.text.contains("S3CR3T") && !logs.text.contains(Self.pin))
    }

    @Test func filteringSortingOrCountingByASecretIsRefusedByName() throws {
        let (served, logs) = try Self.serve()
        for (target, use) in [
            ("/users?api_key=\(Self.key)", "filter"), ("/users.json?api_key__startswith=S3", "filter"), ("/users?pin__gt=5", "filter"),
            ("/users?api_key__isnull=0", "filter"), ("/users?sort=api_key", "sort"), ("/users.json?sort=-pin", "sort"),
            ("/users?facet=api_key", "count"), ("/users.json?facet=pin", "count"), ("/devices?token=x", "filter"),
        ] {
            let answer = try served.get(target)
            #expect(answer.status == 400, "\(target): \(answer.status)")
            #expect(answer.text.contains("is a secret column: it cannot be used to \(use)"), "\(target): \(answer.text.prefix(300))")
            #expect(!answer.text.contains(Self.pin))
        }
        #expect(!logs.text.contains(Self.pin))
    }

    @Test func theSQLPageReadsASecretAsNull() throws {
        let (served, logs) = try Self.serve()
        for sql in [
            "SELECT * FROM users", "SELECT api_key, pin, name FROM users", "SELECT name FROM users WHERE api_key LIKE 'S3%'",
            "SELECT count(*) FROM users WHERE pin > 100", "SELECT (SELECT api_key FROM users LIMIT 1) AS k",
            "SELECT length(api_key), hex(api_key), substr(api_key, 1, 3) FROM users", "SELECT * FROM users JOIN devices USING (id)",
            "WITH k AS (SELECT api_key AS a FROM users) SELECT a FROM k", "SELECT * FROM users ORDER BY api_key",
        ] {
            let encoded = sql.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let page = try served.get("/-/query.json?sql=" + encoded)
            #expect(page.status == 200, "\(sql): \(page.status) \(page.text.prefix(300))")
            Self.expectNoSecret(page, sql)
            Self.expectNoSecret(try served.get("/-/query?sql=" + encoded), sql + " as a page")
            Self.expectNoSecret(try served.get("/-/query.csv?sql=" + encoded), sql + " as CSV")
        }
        // A comparison with the secret sees NULL: no guess is confirmed.
        let guess = "SELECT count(*) AS n FROM users WHERE api_key = '\(Self.key)'".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(try served.get("/-/query.json?sql=" + guess).text.contains("\"n\":0"))
        // Other columns read as before.
        let names = "SELECT name, city FROM users".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(try served.get("/-/query.json?sql=" + names).text.contains("Paris"))
        #expect(!logs.text.contains("S3CR3T"))
    }

    @Test func writesSetASecretAndNeverAnswerWithIt() throws {
        let (served, logs) = try Self.serve()
        let inserted = try served.post(
            "/users/-/insert", #"{"row": {"name": "cy", "api_key": "S3CR3T-new", "pin": 11}, "return": true}"#)
        #expect(inserted.status == 201, "\(inserted.text)")
        Self.expectNoSecret(inserted, "insert")
        #expect(inserted.text.contains("\"name\":\"cy\"") && !inserted.text.contains("api_key"))
        #expect(try served.rows("SELECT api_key, pin FROM users WHERE name = 'cy'") == [[.text("S3CR3T-new"), .integer(11)]])
        let updated = try served.post("/users/1/-/update", #"{"update": {"api_key": "S3CR3T-rotated"}, "return": true}"#)
        #expect(updated.status == 200, "\(updated.text)")
        Self.expectNoSecret(updated, "update")
        #expect(try served.rows("SELECT api_key FROM users WHERE id = 1") == [[.text("S3CR3T-rotated")]])
        let upserted = try served.post("/users/-/upsert", #"{"rows": [{"id": 2, "name": "bo", "api_key": "S3CR3T-up"}], "return": true}"#)
        #expect(upserted.status == 200, "\(upserted.text)")
        Self.expectNoSecret(upserted, "upsert")
        // A value of the wrong type is refused without being quoted back.
        let wrong = try served.post("/users/1/-/update", #"{"update": {"pin": "S3CR3T-not-a-number"}}"#)
        #expect(wrong.status == 400)
        Self.expectNoSecret(wrong, "a refused secret")
        #expect(wrong.errors.contains("“pin” is secret"))
        let deleted = try served.post("/users/2/-/delete", "{}")
        #expect(deleted.status == 200)
        Self.expectNoSecret(deleted, "delete")
        #expect(!logs.text.contains("S3CR3T") && !logs.text.contains(Self.pin))
        #expect(logs.text.contains("row change"))
    }

    @Test func theFormsFieldIsAnEmptySecureFieldThatKeepsTheValue() throws {
        let (served, logs) = try Self.serve()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let bare = try DatabaseWriteFormTests.send(served, "GET", "/users/1/-/edit", cookie: alice)
        let target = try #require(bare.headers["Location"])
        let form = try DatabaseWriteFormTests.send(served, "GET", target, cookie: alice)
        #expect(form.status == 200)
        Self.expectNoSecret(form, "the edit form")
        #expect(form.text.contains("type=\"password\"") && form.text.contains("name=\"api_key\""))
        #expect(form.text.contains("leave it empty to keep the current value"))
        // Empty keeps the value; the other fields change.
        let kept = try DatabaseWriteFormTests.send(served, "POST", target, cookie: alice, form: "name=ada2&api_key=&pin=&city=Lyon")
        #expect(kept.status == 303, "\(kept.text.prefix(400))")
        #expect(
            try served.rows("SELECT name, api_key, pin, city FROM users WHERE id = 1") == [
                [.text("ada2"), .text(Self.key), .integer(Int64(Self.pin)!), .text("Lyon")]
            ])
        // A new value replaces it.
        let next = try DatabaseWriteFormTests.send(served, "GET", "/users/1/-/edit", cookie: alice)
        let again = try #require(next.headers["Location"])
        let set = try DatabaseWriteFormTests.send(served, "POST", again, cookie: alice, form: "name=ada2&api_key=S3CR3T-typed&pin=&city=Lyon")
        #expect(set.status == 303, "\(set.text.prefix(400))")
        #expect(try served.rows("SELECT api_key FROM users WHERE id = 1") == [[.text("S3CR3T-typed")]])
        // A refused form is shown again without what was typed in the secret's field.
        let third = try #require(try DatabaseWriteFormTests.send(served, "GET", "/users/1/-/edit", cookie: alice).headers["Location"])
        let refused = try DatabaseWriteFormTests.send(served, "POST", third, cookie: alice, form: "name=&api_key=S3CR3T-retyped&pin=x&city=")
        #expect(refused.status == 422)
        Self.expectNoSecret(refused, "a refused form")
        // The new row's form asks for it, empty.
        let new = try DatabaseWriteFormTests.send(served, "GET", "/users/-/new", cookie: alice)
        #expect(new.text.contains("type=\"password\""))
        let added = try DatabaseWriteFormTests.send(served, "POST", "/users/-/new", cookie: alice, form: "name=dee&api_key=S3CR3T-dee&pin=&city=")
        #expect(added.status == 303, "\(added.text.prefix(400))")
        Self.expectNoSecret(added, "a new row's answer")
        #expect(try served.rows("SELECT api_key FROM users WHERE name = 'dee'") == [[.text("S3CR3T-dee")]])
        #expect(!logs.text.contains("S3CR3T") && !logs.text.contains(Self.pin))
    }

    @Test func editingModeKeepsTheSecretAndOffersNoUndoThatWouldLoseIt() throws {
        let (served, logs) = try Self.serve()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        for target in ["/users?editing=1", "/users?editing=1&_edit=1", "/users?editing=1&_insert=0", "/devices?editing=1&_edit=1"] {
            let page = try served.get(target, headers: [("Cookie", alice)])
            #expect(page.status == 200, "\(target): \(page.status)")
            Self.expectNoSecret(page, target)
        }
        #expect(try served.get("/users?editing=1&_edit=1", headers: [("Cookie", alice)]).text.contains("type=\"password\""))
        // Saved in place with the secret's field empty: the value stays.
        let version = try DatabaseEditingModeTests.version(served, "/users/1")
        let saved = try DatabaseEditingModeTests.post(
            served, "/users/-/editing", "_do=save&_row=1&_version=\(version)&name=ada3&api_key=&pin=&city=Nice", cookie: alice)
        #expect(saved.status == 303, "\(saved.text.prefix(400))")
        #expect(try served.rows("SELECT name, api_key FROM users WHERE id = 1") == [[.text("ada3"), .text(Self.key)]])
        // A delete: Undo would put the row back without its secret, so none is offered.
        let now = try DatabaseEditingModeTests.version(served, "/users/1")
        let deleted = try DatabaseEditingModeTests.post(served, "/users/-/editing", "_do=delete&_row=1&_version=\(now)", cookie: alice)
        #expect(deleted.status == 303, "\(deleted.text.prefix(400))")
        Self.expectNoSecret(deleted, "a delete's answer")
        #expect(deleted.headers["Location"]?.contains("_undo=") == false)
        #expect(try served.rows("SELECT count(*) FROM users WHERE id = 1") == [[.integer(0)]])
        #expect(!logs.text.contains("S3CR3T") && !logs.text.contains(Self.pin))
        Self.expectNoSecret(try served.get("/metrics"), "/metrics")
    }

    @Test func watchersGetNoSecretInTheirPatches() throws {
        let (served, _) = try Self.serve()
        let page = try EventStreamClient(port: served.server.port, target: "/users")
        let json = try EventStreamClient(port: served.server.port, target: "/users.json")
        let inserted = try served.post("/users/-/insert", #"{"row": {"id": 5, "name": "eve", "api_key": "S3CR3T-live", "pin": 77}}"#)
        #expect(inserted.status == 201, "\(inserted.text)")
        let updated = try served.post("/users/1/-/update", #"{"update": {"api_key": "S3CR3T-live-2", "city": "Rome"}}"#)
        #expect(updated.status == 200, "\(updated.text)")
        for client in [page, json] {
            var data = ""
            while !data.contains("Rome"), let event = try LiveDatabaseListTests.nextBatch(client) { data += event.data }
            #expect(data.contains("eve") && data.contains("Rome"), "\(data.prefix(300))")
            #expect(!data.contains("S3CR3T") && !data.contains(Self.pin))
        }
    }

    @Test func aViewThatShowsASecretKeepsItSecret() throws {
        let sql = Self.sql + "CREATE VIEW people AS SELECT id, name, api_key, pin AS code FROM users; CREATE VIEW again AS SELECT * FROM people;"
        let served = try DatabaseWriteTestServer(sql: sql, configuration: Self.configuration())
        for target in ["/people", "/people.json", "/people.csv", "/again.json", "/again", "/people/-/schema.json"] {
            let page = try served.get(target)
            #expect(page.status == 200, "\(target): \(page.status) \(page.text.prefix(300))")
            Self.expectNoSecret(page, target)
        }
        #expect(try served.get("/people.json").text.contains("ada"))
        #expect(try served.get("/again.json?code=1").status == 400)
        #expect(try served.get("/people.json?sort=api_key").status == 400)
        // A view that reads a secret in an expression or a condition is not served.
        for view in [
            "SELECT name, upper(api_key) AS k FROM users", "SELECT name, api_key, api_key || 'x' AS k FROM users",
            "SELECT name FROM users WHERE pin > 10", "SELECT name, (SELECT max(api_key) FROM users) AS m FROM users",
        ] {
            let database = try TemporaryDatabase(Self.sql + "CREATE VIEW leaky AS \(view);")
            let app = App(publicDirectory: ListTestServer.publicDirectory)
            do {
                try app.mount(Database(path: database.path), configuration: Self.configuration())
                Issue.record("\(view) was served")
            } catch let error as ConfigurationError {
                #expect(error.description.contains("the view leaky reads the secret column users."), "\(error)")
            }
        }
    }

    @Test func aConfigurationThatWouldShowASecretStopsTheStart() throws {
        let database = try TemporaryDatabase(Self.sql)
        for (key, value, message) in [
            ("sort", "[api_key]", "“api_key” is secret"), ("facets", "[pin]", "“pin” is secret"), ("label", "api_key", "“api_key” is secret"),
            ("columns", "[name, api_key]", "“api_key” is secret"), ("sections", "pin", "“pin” is secret"),
        ] {
            let yaml = "tables:\n  users:\n    secret: [api_key, pin]\n    \(key): \(value)\n"
            let configuration = try DatabaseConfiguration(yaml: yaml, file: "secret.yaml")
            let app = App(publicDirectory: ListTestServer.publicDirectory)
            #expect(throws: ConfigurationError.self) { try app.mount(Database(path: database.path), configuration: configuration) }
            do {
                try app.mount(Database(path: database.path), configuration: configuration)
            } catch let error as ConfigurationError {
                #expect(error.description.contains(message), "\(key): \(error)")
            }
        }
        for (yaml, message) in [
            ("tables:\n  users:\n    secret: [nope]\n", "users has no column “nope”"),
            ("tables:\n  users:\n    secret: [name]\n", "indexes the secret column “name”"),
            ("tables:\n  users:\n    secret: [id]\n", "cannot be secret"),
        ] {
            let app = App(publicDirectory: ListTestServer.publicDirectory)
            do {
                try app.mount(Database(path: database.path), configuration: DatabaseConfiguration(yaml: yaml, file: "secret.yaml"))
                Issue.record("\(yaml) was accepted")
            } catch let error as ConfigurationError {
                #expect(error.description.contains(message), "\(error)")
            }
        }
    }
}

/// Every log line written, as text: its message and metadata.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var text: String { lock.withLock { lines.joined(separator: "\n") } }

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged = metadata
            for (key, value) in event.metadata ?? [:] { merged[key] = value }
            lines.append("\(event.level) \(event.message) \(merged)")
        }
    }
}
