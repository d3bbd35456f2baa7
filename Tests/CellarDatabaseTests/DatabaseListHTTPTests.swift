import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// A SQLite file's tables and views served as lists (`app.mount(Database(…))`), over real
/// sockets, on databases generated for each test: the index and where names are mounted, keyset
/// and offset walks against reference queries, validators across a write, and the query time
/// limit. Filters and search are in `+Queries`, details, item types and markup in `+Rows`, and
/// hostile requests in `+HostileRequests`.
@Suite struct DatabaseListHTTPTests {
    /// The cellar fixture, served.
    static func cellar(options: DatabaseOptions = DatabaseOptions()) throws -> DatabaseTestServer {
        try DatabaseTestServer(TemporaryDatabase(CellarFixture.sql), options: options)
    }

    /// A compound key as a row's `id`: each part with `%` and `,` encoded, joined by commas.
    static func compoundID(_ parts: [DatabaseValue]) -> String {
        parts.map { $0.identifier.replacing("%", with: "%25").replacing(",", with: "%2C") }.joined(separator: ",")
    }

    // MARK: The index

    @Test(arguments: [CellarFixture.sql, CellarFixture.names])
    func everyTableAndViewIsInTheIndexAndItsLinksAnswer(sql: String) throws {
        let server = try DatabaseTestServer(TemporaryDatabase(sql))
        let expected = try server.reference(
            """
            SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite%'
            AND name NOT LIKE 'wines\\_search%' ESCAPE '\\' ORDER BY name
            """
        ).map { $0[0].identifier }
        let index = try server.json("/index.json")
        #expect(index["title"]?.string == "Tables")
        // Every table and view, and the SQL page (QueryHTTPTests).
        let entries = index.rows.compactMap { $0["item"] }.filter { $0["path"]?.string != "/-/query" }
        #expect(Set(entries.compactMap { $0["title"]?.string }) == Set(expected))
        #expect(entries.count == expected.count)
        for entry in entries {
            let title = try #require(entry["title"]?.string)
            let path = try #require(entry["path"]?.string)
            let page = try server.get(path)
            #expect(page.status == 200, "\(title) at \(path): \(page.text.prefix(300))")
            #expect(page.text.contains("<h1>\(Self.escaped(title))</h1>"), "\(title) at \(path)")
            let json = try server.json(path + ".json")
            #expect(json["title"]?.string == title, "\(path).json")
            let accepted = try server.json(path, headers: [("Accept", "application/json")])
            #expect(accepted["title"]?.string == title, "\(path) with Accept")
            // The first row's detail, when the list has details.
            if let href = json.rows.first?["href"]?.string {
                #expect(try server.get(href).status == 200, "\(title): \(href)")
                #expect(try server.get(href + ".json").status == 200, "\(title): \(href).json")
            }
        }
        // The HTML index links every list where it is.
        let html = try server.get("/")
        #expect(html.status == 200)
        for entry in entries {
            let path = try #require(entry["path"]?.string)
            #expect(html.text.contains("href=\"\(Self.escaped(path))\""), "\(path)")
        }
    }

    @Test func namesThatShadowTheServersPathsAreMountedUnderTheirOwnPrefix() throws {
        let server = try DatabaseTestServer(TemporaryDatabase(CellarFixture.names))
        let paths = Dictionary(uniqueKeysWithValues: server.mounted.map { ($0.table, $0.path) })
        #expect(paths["static"] == "/-/static")
        #expect(paths["healthz"] == "/-/healthz")
        #expect(paths["-"] == "/-/-")
        #expect(paths["t"] == "/t")
        #expect(paths["t.json"] == "/-/t.json")
        #expect(paths["a/b"] == "/-/x/612f62")
        #expect(paths[":colon"]?.hasPrefix("/-/x") == true)
        #expect(paths["*star"]?.hasPrefix("/-/x") == true)
        // The server's own paths still answer as themselves.
        #expect(try server.get("/healthz").text.contains("marker") == false)
        #expect(try server.json("/t.json")["title"]?.string == "t")
        #expect(try server.json("/-/t.json.json")["title"]?.string == "t.json")
        #expect(try server.json("/%2541.json")["title"]?.string == "%41")
        #expect(try server.json("/100%25.json")["title"]?.string == "100%")
        #expect(try server.json("/caf%C3%A9%20%E2%98%95.json")["title"]?.string == "café ☕")
        #expect(try server.json("/my%20table.json")["title"]?.string == "my table")
        #expect(try server.json("/we%22ird.json")["title"]?.string == "we\"ird")
        #expect(try server.json("/select.json")["title"]?.string == "select")
        #expect(try server.json("/order.json")["title"]?.string == "order")
    }

    @Test func aTableNamedIndexLeavesIndexJSONToTheIndexOfTables() throws {
        let server = try DatabaseTestServer(
            TemporaryDatabase(
                """
                CREATE TABLE "index"(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO "index" VALUES (1, 'index marker');
                CREATE TABLE other(id INTEGER PRIMARY KEY); INSERT INTO other VALUES (1);
                """))
        let path = try #require(server.mounted.first { $0.table == "index" }?.path)
        #expect(try server.json(path + ".json")["title"]?.string == "index")
        #expect(try server.get(path).text.contains("index marker"))
        let index = try server.json("/index.json")
        #expect(index["title"]?.string == "Tables", "/index.json is the index of tables, not the table named index")
        // The two tables, and the SQL page.
        #expect(index.rows.count == 3)
    }

    @Test func tablesNamedDotAndDotDotHaveLinksThatStayTheirs() throws {
        let server = try DatabaseTestServer(
            TemporaryDatabase(
                """
                CREATE TABLE "."(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO "." VALUES (1, 'dot marker');
                CREATE TABLE ".."(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO ".." VALUES (1, 'dot dot marker');
                CREATE TABLE "..."(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO "..." VALUES (1, 'three dots marker');
                """))
        for entry in try server.json("/index.json").rows.compactMap({ $0["item"] }) {
            let title = try #require(entry["title"]?.string)
            let path = try #require(entry["path"]?.string)
            // A browser, or any URL library, removes the dot segments of a link before it asks for it.
            let segments = path.split(separator: "/", omittingEmptySubsequences: false).map { $0.lowercased() }
            #expect(!segments.contains { [".", "..", "%2e", "%2e%2e", ".%2e", "%2e."].contains($0) }, "\(title) at \(path)")
            #expect(try server.json(path + ".json")["title"]?.string == title, "\(title) at \(path)")
        }
    }

    @Test func noTablesPathIsAnothersPath() throws {
        // "/" is mounted at a hex path, and "x2f.json" next to "x2f" at /-/x2f.json: neither may
        // take the other's path or twin.
        let server = try DatabaseTestServer(
            TemporaryDatabase(
                """
                CREATE TABLE "/"(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO "/" VALUES (1, 'slash marker');
                CREATE TABLE "x2f"(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO "x2f" VALUES (1, 'x2f marker');
                CREATE TABLE "x2f.json"(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO "x2f.json" VALUES (1, 'x2f.json marker');
                """))
        let routes = server.mounted.flatMap { [$0.path, $0.path + ".json"] }
        #expect(Set(routes).count == routes.count, "\(server.mounted)")
        for (table, path) in server.mounted {
            #expect(try server.json(path, headers: [("Accept", "application/json")])["title"]?.string == table, "\(table) at \(path)")
        }
    }

    // MARK: Walks

    /// Sorts of the wines and the reference query's order for each.
    static let wineOrders: [(query: String, order: String)] = [
        ("", "id"),
        ("sort=-id", "id DESC"),
        ("sort=vintage", "vintage, id"),
        ("sort=-vintage", "vintage DESC, id"),
        ("sort=vintage&sort=-price", "vintage, price DESC, id"),
        ("sort=-producer_id&sort=vintage", "producer_id DESC, vintage, id"),
        ("sort=-price&sort=-vintage", "price DESC, vintage DESC, id"),
        ("sort=mixed", "mixed, id"),
        ("sort=-mixed", "mixed DESC, id"),
        ("sort=label", "label, id"),
        ("sort=-label&sort=price", "label DESC, price, id"),
        ("sort=name", "name, id"),
        ("sort=-we%22ird%20col&sort=price", "\"we\"\"ird col\" DESC, price, id"),
        ("sort=-limit&sort=select&sort=-id", "\"limit\" DESC, \"select\", id DESC"),
    ]

    @Test(arguments: wineOrders, [3, 7])
    func followingNextVisitsEveryWineOnceInTheReferenceOrder(walk: (query: String, order: String), limit: Int) throws {
        let server = try Self.cellar()
        let expected = try server.referenceIDs("SELECT id FROM wines ORDER BY \(walk.order)")
        let first = try server.json("/wines.json?\(walk.query)&limit=\(limit)")
        #expect(first["meta"]?["total"] == .integer(150))
        #expect(first["meta"]?["totalIsExact"] == .bool(true))
        #expect(first["links"]?["next"]?.string?.contains("cursor=") == true)
        let (rows, pages) = try server.walk("/wines.json?\(walk.query)&limit=\(limit)")
        #expect(rows.compactMap { $0["id"]?.string } == expected)
        #expect(pages == (150 + limit - 1) / limit)
    }

    /// Walks of every kind of key (text, compound, `WITHOUT ROWID`, rowid) and the reference query
    /// of their ids in order.
    static let keyedWalks: [(target: String, reference: String)] =
        [
            ("/stock.json?sort=bottles", "SELECT cellar, bin FROM stock ORDER BY bottles, cellar, bin"),
            ("/stock.json?sort=-bottles&sort=-bin", "SELECT cellar, bin FROM stock ORDER BY bottles DESC, bin DESC, cellar"),
            ("/stock.json?sort=-cellar", "SELECT cellar, bin FROM stock ORDER BY cellar DESC, bin"),
            ("/regions.json?sort=-label", "SELECT country, code FROM regions ORDER BY label DESC, country, code"),
            ("/regions.json?sort=code&sort=-country", "SELECT country, code FROM regions ORDER BY code, country DESC"),
            ("/tasting_notes.json?sort=-note&sort=score", "SELECT rowid FROM tasting_notes ORDER BY note DESC, score, rowid"),
            ("/grapes.json?sort=-color", "SELECT name FROM grapes ORDER BY color DESC, name"),
        ] + CellarFixture.defaultOrders.map { ($0.path + ".json", $0.reference) }

    @Test(arguments: keyedWalks)
    func followingNextVisitsEveryRowOfEveryKindOfKeyOnce(target: String, reference: String) throws {
        let server = try Self.cellar()
        let expected = try server.reference(reference).map { $0.count == 1 ? $0[0].identifier : Self.compoundID($0) }
        for limit in [1, 3, 7] {
            let (rows, _) = try server.walk(target + (target.contains("?") ? "&" : "?") + "limit=\(limit)")
            #expect(rows.compactMap { $0["id"]?.string } == expected, "limit \(limit)")
        }
    }

    @Test func pagesGoOnByOffsetAfterARowWhoseSortValuesAreTooLongForAURL() throws {
        // Keys of 3,000 characters: a cursor holding one would make a URL proxies refuse.
        let server = try DatabaseTestServer(
            TemporaryDatabase(
                """
                CREATE TABLE notes(title TEXT PRIMARY KEY, body TEXT);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12)
                INSERT INTO notes SELECT printf('%02d', i) || CASE WHEN i % 4 = 2 THEN replace(hex(zeroblob(1500)), '0', '.') ELSE '' END, 'body ' || i FROM n;
                """))
        let expected = try server.reference("SELECT title FROM notes ORDER BY title").map { $0[0].identifier }
        for limit in [1, 2, 5] {
            // Rows 2, 6 and 10 have the long keys: a page ending on one links on by offset.
            let next = try #require(try server.json("/notes.json?limit=\(limit)")["links"]?["next"]?.string)
            #expect(next.contains(limit == 2 ? "offset=2" : "cursor="), "limit \(limit): \(next.prefix(80))")
            let (rows, pages) = try server.walk("/notes.json?limit=\(limit)")
            #expect(rows.compactMap { $0["id"]?.string } == expected, "limit \(limit)")
            #expect(pages == (12 + limit - 1) / limit)
            var target: String? = "/notes?limit=\(limit)"
            while let current = target {
                let page = try server.get(current)
                #expect(page.status == 200)
                #expect(current.utf8.count < 6_000, "\(current.prefix(80))")
                target = HTMLRows.loadMoreLink(page.text).map { $0.replacing("&amp;", with: "&") }
            }
        }
    }

    @Test func aViewPagesByOffsetAndEveryRowComesOnceEvenAmongTies() throws {
        let server = try Self.cellar()
        for order in ["", "sort=vintage", "sort=-vintage&sort=price"] {
            let terms = order.split(separator: "&").map { $0.dropFirst(5) }.map { $0.hasPrefix("-") ? "\($0.dropFirst()) DESC" : String($0) }
            let reference = try server.reference(
                "SELECT id, name, price, vintage FROM cheap_wines\(terms.isEmpty ? "" : " ORDER BY " + terms.joined(separator: ", "))")
            let first = try server.json("/cheap_wines.json?\(order)&limit=3")
            #expect(first["links"]?["next"]?.string?.contains("offset=3") == true, "\(order)")
            #expect(first["meta"]?["total"] == .integer(Int64(reference.count)))
            let (rows, _) = try server.walk("/cheap_wines.json?\(order)&limit=3")
            #expect(rows.compactMap { $0["id"]?.string } == (1...reference.count).map(String.init), "\(order): rows are numbered")
            #expect(rows.allSatisfy { $0["href"]?.isNull == true }, "a view's rows have no detail")
            let items = rows.compactMap { $0["item"] }
            // Rows that tie may come in either order, but each comes once, and the sort holds.
            #expect(items.map(\.description).sorted() == reference.map(Self.item(cheapWine:)).map(\.description).sorted(), "\(order)")
            #expect(items.map { $0["vintage"] ?? .null } == reference.map { $0[3].json } || order.isEmpty, "\(order)")
        }
    }

    static func item(cheapWine row: [DatabaseValue]) -> JSON {
        .object(["id": row[0].json, "name": row[1].json, "price": row[2].json, "vintage": row[3].json])
    }

    @Test func aTableOverTheCountLimitSaysItsTotalIsAtLeastAndIsWalkedWhole() throws {
        let server = try Self.cellar()
        let first = try server.json("/bottles.json?sort=-opened&limit=5000")
        #expect(first["meta"]?["limit"] == .integer(1000))
        #expect(first["meta"]?["limitClamped"] == .bool(true))
        #expect(first["meta"]?["totalIsExact"] == .bool(false))
        #expect((first["meta"]?["total"]?.integer ?? 0) >= 1001)
        let expected = try server.referenceIDs("SELECT rowid FROM bottles ORDER BY opened DESC, rowid")
        let (rows, pages) = try server.walk("/bottles.json?sort=-opened&limit=1000")
        #expect(pages == 12)
        #expect(rows.compactMap { $0["id"]?.string } == expected)
        let page = try server.get("/bottles?sort=-opened&limit=10")
        #expect(page.text.contains("at least"))
        let index = try server.get("/")
        #expect(index.text.contains("More than 10,000 rows"))
    }

    @Test func aColumnsCollationOrdersTheWalkAsItOrdersTheReferenceQuery() throws {
        let server = try DatabaseTestServer(
            TemporaryDatabase(
                """
                CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE, city TEXT);
                INSERT INTO people(name, city) VALUES ('a', 'X'), ('A', 'x'), ('b', NULL), ('B', 'y'), ('á', 'Y'), ('a', NULL), (NULL, 'x'), ('Ab', 'X');
                """))
        for (query, order) in [("sort=name", "name, id"), ("sort=-name", "name DESC, id"), ("sort=-city&sort=name", "city DESC, name, id")] {
            let expected = try server.referenceIDs("SELECT id FROM people ORDER BY \(order)")
            #expect(try server.walk("/people.json?\(query)&limit=1").rows.compactMap { $0["id"]?.string } == expected, "\(query)")
        }
    }

    @Test func aTableWhoseColumnIsNamedRowIDIsKeyedByItsRealRowID() throws {
        let server = try DatabaseTestServer(
            TemporaryDatabase(
                """
                CREATE TABLE a(rowid TEXT, body TEXT);
                INSERT INTO a(_rowid_, rowid, body) VALUES (10, 'x', 'first'), (20, '1', 'second'), (30, NULL, 'third');
                """))
        let rows = try server.walk("/a.json?limit=1").rows
        #expect(rows.compactMap { $0["id"]?.string } == ["10", "20", "30"])
        #expect(rows.compactMap { $0["item"]?["rowid"] } == [.string("x"), .string("1"), .null])
        #expect(try server.json("/a/20.json")["item"]?["body"]?.string == "second")
        #expect(try server.get("/a/1").status == 404, "the text column named rowid is not the key")
        #expect(try server.walk("/a.json?sort=-rowid&limit=1").rows.compactMap { $0["id"]?.string } == ["10", "20", "30"])
    }

    @Test func aKeyWithNullsStillVisitsEveryRowOnce() throws {
        // SQLite lets a primary key that is not an INTEGER PRIMARY KEY hold NULLs, several of them:
        // the key then breaks no tie between them, and the rowid, selected after the columns, does.
        let server = try DatabaseTestServer(
            TemporaryDatabase(
                """
                CREATE TABLE nicknames(nick TEXT PRIMARY KEY, wine INTEGER);
                INSERT INTO nicknames VALUES ('Red', 1), (NULL, 2), (NULL, 3), ('Blue', 4), (NULL, 5), ('Rosé', 6);
                """))
        // One page holds them all; a page that ends among the NULLs loses the others.
        #expect(try server.json("/nicknames.json").rows.count == 6)
        #expect(try Self.wines(server.walk("/nicknames.json?limit=4").rows) == [1, 2, 3, 4, 5, 6])
        for limit in [1, 2] {
            let wines = try Self.wines(server.walk("/nicknames.json?limit=\(limit)").rows)
            #expect(wines == [1, 2, 3, 4, 5, 6], "limit \(limit)")
        }
    }

    /// A NULL key names no row (`/nicknames/` is the list itself), so the row has no link to a
    /// detail, on the page in either layout and in the JSON, and its neighbours keep theirs.
    @Test func aRowWhoseKeyIsNullLinksToNoDetail() throws {
        let sql = "CREATE TABLE nicknames(nick TEXT PRIMARY KEY, wine INTEGER); INSERT INTO nicknames VALUES (NULL, 2), ('Red', 1);"
        let server = try DatabaseTestServer(TemporaryDatabase(sql))
        let rows = try server.json("/nicknames.json").rows
        #expect(rows.count == 2)
        #expect(try server.json(#require(rows.last?["href"]?.string) + ".json")["item"]?["wine"] == .integer(1))
        #expect(rows.first?["item"]?["wine"] == .integer(2))
        #expect(rows.first?["href"] == .null)
        let cells = try DatabaseTestServer(
            TemporaryDatabase(sql), configuration: DatabaseConfiguration(yaml: "tables:\n  nicknames:\n    layout: cells\n", file: "n.yaml"))
        for (layout, server) in [("columns", server), ("cells", cells)] {
            let page = try server.get("/nicknames")
            #expect(page.status == 200)
            #expect(page.text.contains("href=\"/nicknames/Red\""), "\(layout)")
            #expect(!page.text.contains("href=\"/nicknames/\""), "\(layout)")
            #expect(!page.text.contains("<a class=\"cell-link\">"), "\(layout)")
        }
    }

    static func wines(_ rows: [JSON]) -> [Int64] {
        rows.compactMap { $0["item"]?["wine"]?.integer }.sorted()
    }

    @Test func theLinkHeaderAndTheLoadMoreLinkWalkThePagesAsLinksNextDoes() throws {
        let server = try Self.cellar()
        let expected = try server.referenceIDs("SELECT id FROM wines ORDER BY vintage DESC, price, id")
        var byHeader: [String] = []
        var target: String? = "/wines.json?sort=-vintage&sort=price&limit=7"
        while let current = target, byHeader.count <= 150 {
            let response = try server.get(current)
            byHeader += try JSON.parse(response.body).ids
            target = response.links["next"]
        }
        #expect(byHeader == expected)
        var byPage: [String] = []
        target = "/wines?sort=-vintage&sort=price&limit=7"
        while let current = target, byPage.count <= 150 {
            let response = try server.get(current)
            #expect(response.status == 200)
            byPage += HTMLRows.identifiers(response.text)
            target = HTMLRows.loadMoreLink(response.text)
        }
        #expect(byPage == expected)
    }

    // MARK: Validators

    @Test func aRepeatedRequestIsNotModifiedUntilAnotherConnectionWrites() throws {
        let server = try Self.cellar()
        for target in ["/wines.json?sort=-id&limit=5", "/wines?sort=-id&limit=5"] {
            let first = try server.get(target)
            let tag = try #require(first.headers["ETag"])
            let again = try server.get(target, headers: [("If-None-Match", tag)])
            #expect(again.status == 304, "\(target)")
            #expect(again.headers["ETag"] == tag)
        }
        let jsonTag = try #require(try server.get("/wines.json?sort=-id&limit=5").headers["ETag"])
        let pageTag = try #require(try server.get("/wines?sort=-id&limit=5").headers["ETag"])
        try server.database.writer().execute("INSERT INTO wines(id, name) VALUES (1000, 'Written elsewhere')")
        let changed = try server.get("/wines.json?sort=-id&limit=5", headers: [("If-None-Match", jsonTag)])
        #expect(changed.status == 200)
        let newTag = try #require(changed.headers["ETag"])
        #expect(newTag != jsonTag)
        #expect(try JSON.parse(changed.body).ids.first == "1000")
        #expect(try server.get("/wines.json?sort=-id&limit=5", headers: [("If-None-Match", newTag)]).status == 304)
        let page = try server.get("/wines?sort=-id&limit=5", headers: [("If-None-Match", pageTag)])
        #expect(page.status == 200)
        #expect(page.text.contains("Written elsewhere"))
        #expect(try server.json("/wines/1000.json")["title"]?.string == "Written elsewhere")
    }

    // MARK: The time limit

    @Test func aQueryOverTheTimeLimitIsServiceUnavailableWithRetryAfter() throws {
        var options = DatabaseOptions()
        options.timeLimit = 0.2
        // The queries that must end within the limit count 11 rows, not 10,001.
        options.countLimit = 10
        let server = try DatabaseTestServer(
            TemporaryDatabase(
                """
                CREATE TABLE small(id INTEGER PRIMARY KEY, v TEXT);
                INSERT INTO small VALUES (1, 'a');
                CREATE VIEW endless AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, 'row ' || x AS label FROM c;
                """), options: options)
        // The first rows of an endless view come at once.
        #expect(try server.json("/endless.json?limit=5").rows.count == 5)
        for target in [
            "/endless.json?label__contains=nowhere", "/endless.json?sort=-x", "/endless?label__exact=nowhere", "/endless.json?offset=99999999999",
        ] {
            let response = try server.get(target)
            #expect(response.status == 503, "\(target): \(response.text.prefix(200))")
            #expect(response.headers["Retry-After"] != nil, "\(target)")
            #expect(response.text.contains("limit"), "\(target)")
        }
        // The server and its connections serve on.
        #expect(try server.json("/small.json").rows.count == 1)
        #expect(try server.json("/endless.json?limit=3").rows.count == 3)
    }

    // MARK: Helpers

    /// `text` as HTMLWriter escapes text and attributes.
    static func escaped(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
            .replacing("'", with: "&#39;")
    }
}
