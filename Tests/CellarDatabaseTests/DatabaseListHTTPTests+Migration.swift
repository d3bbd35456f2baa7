import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// A schema that changes while the server runs — a column added or renamed, a table created or
/// dropped, through the test's own writable connection — answered right on the next request, and
/// never with a 500 while it happens.
extension DatabaseListHTTPTests {
    @Test func aMigrationWhileServingIsFollowedOnTheNextRequest() throws {
        let server = try Self.schemaServer()
        // Every list read once first: its statements are prepared and cached on the connections.
        for path in ["/symbols.json", "/stocks.json?sort=close", "/stocks/3.json", "/members.json", "/people/2.json", "/symbols/S1"] {
            #expect(try server.get(path).status == 200, "\(path)")
        }
        let writer = try server.database.writer()

        // A column added: in the JSON, the row's page and the schema at once.
        try writer.execute("ALTER TABLE symbols ADD COLUMN sector TEXT; UPDATE symbols SET sector = 'Tech' WHERE symbol = 'S1'")
        #expect(try server.json("/symbols/S1.json")["item"]?["sector"]?.string == "Tech")
        #expect(try server.json("/symbols.json?limit=2").rows.allSatisfy { $0["item"]?["sector"] != nil })
        #expect(try server.json("/symbols/-/schema.json")["columns"]?.array.last?["name"]?.string == "sector")
        #expect(try server.get("/symbols?sector=Tech").text.contains("1 row match"))

        // A column renamed: sorted and filtered by its new name; its old name is a 400, not a 500.
        try writer.execute("ALTER TABLE stocks RENAME COLUMN close TO last_price")
        let sorted = try server.json("/stocks.json?sort=last_price&limit=5")
        #expect(sorted.rows.map { $0["id"]?.string ?? "" } == (try server.referenceIDs("SELECT id FROM stocks ORDER BY last_price, id LIMIT 5")))
        #expect(sorted.rows.first?["item"]?["close"] == nil)
        #expect(try server.get("/stocks?close__gt=3").status == 400)
        #expect(try server.get("/stocks/3").text.contains("<dt>last_price</dt>"))

        // A table dropped: its list is gone, and the rows it referenced no longer count it.
        try writer.execute("DROP TABLE members")
        #expect(try server.get("/members").status == 404)
        #expect(try server.get("/members.json").status == 404)
        #expect(try server.get("/members/1").status == 404)
        let person = try server.json("/people/2.json")
        #expect(person["references"] == nil)

        // A table dropped leaves the index and the navigation.
        let index = try server.get("/").text
        #expect(!index.contains("href=\"/members\""))
        #expect(try server.get("/symbols/S1").status == 200)
    }

    /// A table created while serving is a list at once: its path answers (the first request finds
    /// it), and the index and every page's navigation link it; dropped, it leaves them again.
    @Test func aTableCreatedWhileServingIsMountedWithoutARestart() throws {
        let server = try Self.schemaServer()
        #expect(try server.get("/newcomers").status == 404)
        let writer = try server.database.writer()
        try writer.execute(
            """
            CREATE TABLE newcomers(id INTEGER PRIMARY KEY, name TEXT, symbol TEXT REFERENCES symbols(symbol));
            INSERT INTO newcomers VALUES (1, 'first', 'S1'), (2, '<b>second</b>', NULL), (3, 'third', 'S2')
            """)
        // The first request is the new table's own: no route answered it, so the schema is looked at.
        let page = try server.get("/newcomers")
        #expect(page.status == 200, "\(page.text.prefix(300))")
        #expect(HTMLRows.identifiers(page.text) == ["1", "2", "3"])
        #expect(page.text.contains("&lt;b&gt;second&lt;/b&gt;"))
        #expect(page.text.contains("<a href=\"/symbols/S1\">"), "its foreign key links")
        #expect(try server.json("/newcomers.json").rows.map { $0["item"]?["name"]?.string } == ["first", "<b>second</b>", "third"])
        #expect(try server.get("/newcomers/2").status == 200)
        #expect(try server.get("/newcomers.csv").text.hasPrefix("id,name,symbol\r\n1,first,S1"))
        #expect(try server.json("/newcomers/-/schema.json")["columns"]?.array.count == 3)
        // The index lists it (with its count and columns), and other pages' navigation links it.
        let index = try server.get("/").text
        #expect(index.contains("href=\"/newcomers\""))
        #expect(index.contains("3 rows · id, name, symbol"))
        #expect(try server.get("/symbols").text.contains("<a href=\"/newcomers\""))
        #expect(try server.json("/index.json").rows.contains { $0["item"]?["path"]?.string == "/newcomers" })

        // Another table created: the index alone finds it, before anyone asks for its list.
        try writer.execute("CREATE TABLE later(id INTEGER PRIMARY KEY, note TEXT); INSERT INTO later VALUES (1, 'x')")
        #expect(try server.get("/").text.contains("href=\"/later\""))
        #expect(try server.get("/later").status == 200)

        // Dropped: 404, and gone from the index; created again: back at the same path.
        try writer.execute("DROP TABLE newcomers")
        #expect(try server.get("/newcomers").status == 404)
        #expect(!(try server.get("/").text.contains("href=\"/newcomers\"")))
        try writer.execute("CREATE TABLE newcomers(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO newcomers VALUES (7, 'again')")
        #expect(HTMLRows.identifiers(try server.get("/newcomers").text) == ["7"])
        #expect(try server.get("/").text.contains("href=\"/newcomers\""))
    }

    /// An error page's navigation is every page's: a table created while serving is in it, and one
    /// dropped leaves it.
    @Test func anErrorPagesNavigationFollowsTablesCreatedAndDropped() throws {
        let server = try Self.schemaServer()
        let link = #"<a href="/newcomers""#
        #expect(!(try server.get("/nowhere").text.contains(link)))
        let writer = try server.database.writer()
        try writer.execute("CREATE TABLE newcomers(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO newcomers VALUES (1, 'first')")
        #expect(try server.get("/newcomers").status == 200)
        for target in ["/nowhere", "/newcomers/99", "/symbols/nothing"] {
            let page = try server.get(target)
            #expect(page.status == 404, "\(target)")
            #expect(page.text.contains(link), "\(target)")
            #expect(page.text.contains(#"<a href="/members""#), "\(target)")
        }
        try writer.execute("DROP TABLE members")
        let page = try server.get("/nowhere")
        #expect(page.status == 404)
        #expect(!page.text.contains(#"<a href="/members""#))
        #expect(page.text.contains(link))
    }

    /// A created table whose name would shadow a path of the server's is mounted where it would be at start.
    @Test func aTableCreatedWithAReservedNameGoesWhereAStartWouldPutIt() throws {
        let server = try Self.schemaServer()
        let writer = try server.database.writer()
        try writer.execute(
            """
            CREATE TABLE "healthz"(id INTEGER PRIMARY KEY); INSERT INTO "healthz" VALUES (5);
            CREATE TABLE "a/b"(id INTEGER PRIMARY KEY); INSERT INTO "a/b" VALUES (6);
            """)
        #expect(try server.get("/healthz").text.contains("\"status\":\"ok\""), "the server's own path is kept")
        let index = try server.get("/").text
        #expect(index.contains("href=\"/-/healthz\""))
        #expect(HTMLRows.identifiers(try server.get("/-/healthz").text) == ["5"])
        let hex = "/-/x/" + "a/b".utf8.map { String(format: "%02x", $0) }.joined()
        #expect(index.contains("href=\"\(hex)\""), "\(index)")
        #expect(HTMLRows.identifiers(try server.get(hex).text) == ["6"])
    }

    @Test func aColumnTheConfigurationNamesRenamedIsA503ThatSaysWhy() throws {
        let configuration = try DatabaseConfiguration(yaml: "tables:\n  stocks:\n    columns: [day, close]\n", file: "stocks.yaml")
        let server = try Self.schemaServer(configuration: configuration)
        #expect(try server.get("/stocks").status == 200)
        try server.database.writer().execute("ALTER TABLE stocks RENAME COLUMN close TO last_price")
        let page = try server.get("/stocks")
        #expect(page.status == 503)
        #expect(page.text.contains("The schema of “stocks” changed"), "\(page.text)")
        #expect(page.text.contains("close"))
        #expect(try server.get("/stocks.json").status == 503)
        #expect(try server.get("/symbols").status == 200)
        // Put back, it is served again.
        try server.database.writer().execute("ALTER TABLE stocks RENAME COLUMN last_price TO close")
        #expect(try server.get("/stocks").status == 200)
    }

    @Test func requestsDuringMigrationsAreNeverA500() throws {
        let server = try Self.schemaServer()
        let paths = ["/stocks.json?limit=5&sort=-day", "/symbols/S1.json", "/stocks/3", "/symbols?limit=5", "/stocks/-/schema.json"]
        let state = MigrationRace()
        let port = server.server.port
        let file = server.database.path
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                defer { state.withLock { $0.done = true } }
                do {
                    let writer = try SQLiteConnection(path: file, readOnly: false)
                    for step in 0..<12 {
                        try writer.execute("ALTER TABLE stocks ADD COLUMN extra\(step) INTEGER DEFAULT \(step)")
                        try writer.execute("ALTER TABLE symbols RENAME COLUMN note TO note\(step)")
                        try writer.execute("ALTER TABLE symbols RENAME COLUMN note\(step) TO note")
                    }
                } catch {
                    state.withLock { $0.failure = "\(error)" }
                }
                return
            }
            var turn = worker
            while !state.withLock({ $0.done }) {
                let path = paths[turn % paths.count]
                turn += 1
                let status = (try? TestHTTPClient.send("GET", path, port: port, headers: [], timeout: .seconds(60)).status) ?? -1
                state.withLock { $0.statuses["\(path) \(status)", default: 0] += 1 }
            }
        }
        #expect(state.withLock { $0.failure } == nil)
        let seen = state.withLock { $0.statuses }
        // A request may meet a change between its look at the schema and its read: a 503 that says
        // to reload. Never a 500.
        #expect(seen.keys.allSatisfy { $0.hasSuffix(" 200") || $0.hasSuffix(" 503") }, "\(seen)")
        let stock = try server.json("/stocks/3.json")
        #expect((0..<12).allSatisfy { stock["item"]?["extra\($0)"] == .integer(Int64($0)) }, "\(stock)")
    }
}

/// What the workers of ``DatabaseListHTTPTests/requestsDuringMigrationsAreNeverA500()`` share.
private final class MigrationRace: @unchecked Sendable {
    struct State {
        var statuses: [String: Int] = [:]
        var done = false
        var failure: String?
    }

    private let lock = NSLock()
    private var state = State()

    func withLock<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
}
