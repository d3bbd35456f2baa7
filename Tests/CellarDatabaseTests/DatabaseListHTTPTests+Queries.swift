import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// Filters by every operator, and search over FTS5 indexes, against reference queries; the 400s
/// for names and values a table does not take.
extension DatabaseListHTTPTests {
    // MARK: Filters and search

    static let filters: [(query: String, condition: String)] = [
        ("vintage=2003", "vintage = 2003"),
        ("vintage__exact=2003", "vintage = 2003"),
        ("vintage=%2B2003", "vintage = 2003"),
        ("vintage__gt=2003", "vintage > 2003"),
        ("vintage__gte=2003", "vintage >= 2003"),
        ("vintage__lt=2003", "vintage < 2003"),
        ("vintage__lte=2003", "vintage <= 2003"),
        ("vintage__isnull=1", "vintage IS NULL"),
        ("vintage__isnull=true", "vintage IS NULL"),
        ("vintage__isnull=0", "vintage IS NOT NULL"),
        ("price__lt=10.5", "price < 10.5"),
        ("price=5.25", "price = 5.25"),
        ("price__gte=30", "price >= 30"),
        ("name__contains=Wine%201", "instr(name, 'Wine 1') > 0"),
        ("name__contains=%25", "instr(name, '%') > 0"),
        ("name__contains=_", "instr(name, '_') > 0"),
        ("notes__contains=%3Cb%3E", "instr(notes, '<b>') > 0"),
        ("name=%3Cb%3Ex%3C%2Fb%3E%20Ch%C3%A2teau%20%22%C3%9Cn%C3%AFc%C3%B8d%C3%A9%22%20%27quoted%27", "id = 3"),
        ("name=Gr%C3%BCner%2C%20100%25%20%2F%20x", "id = 4"),
        ("limit__exact=2", "\"limit\" = 2"),
        ("limit__exact=2&limit=4", "\"limit\" = 2"),
        ("select=yes", "\"select\" = 'yes'"),
        ("we%22ird%20col=v1", "\"we\"\"ird col\" = 'v1'"),
        ("we%22ird%20col__contains=3", "instr(\"we\"\"ird col\", '3') > 0"),
        ("producer_id=3&vintage__gte=2002", "producer_id = 3 AND vintage >= 2002"),
        ("producer_id__isnull=1&price__isnull=0", "producer_id IS NULL AND price IS NOT NULL"),
        ("mixed=m1", "mixed = 'm1'"),
        ("label__isnull=0", "label IS NOT NULL"),
        ("_x=1&utm_source=news&vintage=2001", "vintage = 2001"),
        ("vintage=2003&vintage=2004", "vintage = 2003 AND vintage = 2004"),
    ]

    @Test(arguments: filters)
    func filtersKeepTheRowsTheReferenceQueryKeeps(filter: (query: String, condition: String)) throws {
        let server = try Self.cellar()
        let expected = try server.referenceIDs("SELECT id FROM wines WHERE \(filter.condition) ORDER BY id")
        let first = try server.json("/wines.json?\(filter.query)&limit=7")
        #expect(first["meta"]?["total"] == .integer(Int64(expected.count)))
        let (rows, _) = try server.walk("/wines.json?\(filter.query)&limit=7")
        #expect(rows.compactMap { $0["id"]?.string } == expected)
        // Sorted, and walked by cursor, the filter keeps the same rows.
        let sorted = try server.referenceIDs("SELECT id FROM wines WHERE \(filter.condition) ORDER BY price DESC, id")
        #expect(try server.walk("/wines.json?\(filter.query)&sort=-price&limit=3").rows.compactMap { $0["id"]?.string } == sorted)
    }

    /// Searches, and the FTS5 query that finds the same rows: each word is searched for as written.
    static let searches: [(query: String, match: String)] = [
        ("q=oak", "oak"),
        ("q=OAK", "oak"),
        ("q=oak%20cherry", "oak cherry"),
        ("q=%20%20oak%20%20", "oak"),
        ("q=%22oak%22", "oak"),
        ("q=oak*", "\"oak\""),
        ("q=vanil*", "\"vanil\""),
        ("q=Ch%C3%A2teau", "chateau"),
        ("q=oak%20OR%20citrus", "oak \"or\" citrus"),
        ("q=NEAR(oak%20cherry)", "\"NEAR(oak\" \"cherry)\""),
        ("q=-oak", "oak"),
        ("q=notes%3Acitrus", "\"notes\" + \"citrus\""),
        ("q=%22", "\"\""),
        ("q=oak%00cherry", "oak cherry"),
        ("q=oak&vintage=2003", "oak"),
        ("q=oak&sort=-vintage", "oak"),
    ]

    @Test(arguments: searches)
    func searchFindsTheRowsTheFullTextIndexFinds(search: (query: String, match: String)) throws {
        let server = try Self.cellar()
        let filter = search.query.contains("vintage=2003") ? " AND vintage = 2003" : ""
        let order = search.query.contains("sort=-vintage") ? "vintage DESC, id" : "id"
        let expected = try server.referenceIDs(
            "SELECT id FROM wines WHERE id IN (SELECT rowid FROM wines_search WHERE wines_search MATCH ?)\(filter) ORDER BY \(order)",
            [.text(search.match)])
        let (rows, _) = try server.walk("/wines.json?\(search.query)&limit=7")
        #expect(rows.compactMap { $0["id"]?.string } == expected)
        let page = try server.get("/wines?\(search.query)&limit=3")
        #expect(page.status == 200)
        #expect(page.text.contains("<form class=\"search\""))
    }

    @Test func aTableWithAFullTextTableOfItsOwnNameIsSearched() throws {
        let server = try DatabaseTestServer(
            TemporaryDatabase(
                """
                CREATE TABLE articles(id INTEGER PRIMARY KEY, title TEXT, body TEXT);
                CREATE VIRTUAL TABLE articles_fts USING fts5(title, body);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
                INSERT INTO articles SELECT i, 'Article ' || i, CASE i % 3 WHEN 0 THEN 'cellar door' WHEN 1 THEN 'wine cellar' ELSE 'door' END FROM n;
                INSERT INTO articles_fts(rowid, title, body) SELECT id, title, body FROM articles;
                """))
        let index = try server.json("/index.json").rows.compactMap { $0["item"]?["title"]?.string }
        #expect(index == ["articles", "Run SQL"], "the FTS5 table and its shadow tables are not lists")
        for (query, match) in [("q=cellar", "cellar"), ("q=cellar%20door", "cellar door"), ("q=door&sort=-id", "door")] {
            let order = query.contains("sort=-id") ? "id DESC" : "id"
            let expected = try server.referenceIDs(
                "SELECT id FROM articles WHERE id IN (SELECT rowid FROM articles_fts WHERE articles_fts MATCH ?) ORDER BY \(order)", [.text(match)])
            #expect(try server.walk("/articles.json?\(query)&limit=4").rows.compactMap { $0["id"]?.string } == expected, "\(query)")
        }
    }

    @Test func anEmptySearchKeepsEveryRow() throws {
        let server = try Self.cellar()
        #expect(try server.json("/wines.json?q=%20")["meta"]?["total"] == .integer(150))
        #expect(try server.json("/wines.json?q=")["meta"]?["total"] == .integer(150))
        #expect(try server.json("/wines.json?q=%00%20%00")["meta"]?["total"] == .integer(150))
    }

    @Test func unknownNamesAndValuesThatDoNotParseAreBadRequestsThatSayWhatIsAccepted() throws {
        let server = try Self.cellar()
        let cases: [(target: String, mentions: [String])] = [
            ("/wines.json?nope=1", ["nope", "vintage", "producer_id", "limit, offset, cursor, sort, q"]),
            ("/wines.json?vintage__nope=1", ["__exact", "__isnull"]),
            ("/wines.json?nope__gt=1", ["nope__gt", "vintage"]),
            ("/wines.json?vintage=abc", ["vintage", "integers"]),
            ("/wines.json?vintage=2003.5", ["vintage"]),
            ("/wines.json?price=ten", ["price"]),
            ("/wines.json?price=1e999", ["price"]),
            ("/wines.json?price=nan", ["price"]),
            ("/wines.json?price=inf", ["price"]),
            ("/wines.json?vintage__isnull=maybe", ["1 or 0"]),
            ("/wines.json?sort=nope", ["nope", "vintage"]),
            ("/wines.json?sort=-", []),
            ("/grapes.json?q=red", ["full-text"]),
            ("/wines?fragment=all", ["rows"]),
            ("/wines?nope=1", ["nope", "vintage"]),
            ("/cheap_wines.json?id__gt=x", ["id"]),
        ]
        for (target, mentions) in cases {
            let response = try server.get(target)
            if target.hasSuffix("sort=-") {
                #expect(response.status == 200, "an empty sort is no sort")
                continue
            }
            #expect(response.status == 400, "\(target): \(response.text.prefix(200))")
            for mention in mentions { #expect(response.text.contains(mention), "\(target) should mention \(mention): \(response.text.prefix(400))") }
        }
    }
}
