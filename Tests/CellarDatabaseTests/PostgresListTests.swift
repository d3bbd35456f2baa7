import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// Lists over PostgreSQL answer as lists over SQLite do: the same tables loaded into both
/// (``PostgresListFixture``), the same requests, the same bytes — pages, JSON, sorts with NULLs,
/// every filter operator, cursors walked to the end, details, foreign-key links, hostile values and
/// errors. Run by `make test-postgres` against its throwaway cluster; skipped without it.
///
/// Serialized, and run apart from PostgresConnectionTests (whose tests stop the server).
@Suite(
    .serialized,
    .enabled(
        if: PostgresTestServer.url != nil && PostgresTestServer.cluster != nil,
        "CELLAR_TEST_POSTGRES and CELLAR_TEST_POSTGRES_CLUSTER are not set (make test-postgres sets them)"))
struct PostgresListTests {
    var fixture: PostgresListFixture { get throws { try PostgresListFixture.shared.get() } }

    /// Asks both servers for `target` and expects the same status — `status`, unless nil — and,
    /// for a 200, the same body byte for byte; for an error, the same message (the request ids differ).
    func expectSame(
        _ target: String, status: Int? = 200, headers: [(String, String)] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let fixture = try fixture
        let sqlite = try fixture.sqlite.get(target, headers: headers)
        let postgres = try fixture.postgres.get(target, headers: headers)
        if let status { #expect(sqlite.status == status, "\(target): \(sqlite.text.prefix(300))", sourceLocation: sourceLocation) }
        #expect(
            sqlite.status == postgres.status, "\(target): SQLite \(sqlite.status), PostgreSQL \(postgres.status) \(postgres.text.prefix(400))",
            sourceLocation: sourceLocation)
        if sqlite.status == 200 {
            // The schema's disclosure names each engine's own types and indexes (`INTEGER`, `bigint`):
            // compared apart, in `+Schema`.
            let (sqliteText, postgresText) = (Self.withoutSchema(sqlite.text), Self.withoutSchema(postgres.text))
            #expect(sqliteText == postgresText, "\(target): \(Self.difference(sqliteText, postgresText))", sourceLocation: sourceLocation)
        } else {
            #expect(Self.withoutRequestID(sqlite.text) == Self.withoutRequestID(postgres.text), "\(target)", sourceLocation: sourceLocation)
        }
    }

    /// Where two texts part, with a little of each.
    static func difference(_ a: String, _ b: String) -> String {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        let common = zip(a, b).prefix { $0 == $1 }.count
        func around(_ bytes: [UInt8]) -> String { String(decoding: bytes[max(0, common - 80)..<min(bytes.count, common + 120)], as: UTF8.self) }
        return "first difference at byte \(common):\nSQLite:     \(around(a))\nPostgreSQL: \(around(b))"
    }

    /// A table page without its schema's disclosure.
    static func withoutSchema(_ text: String) -> String {
        text.replacing(/<details class="schema">[\s\S]*?<\/details>\n/, with: "")
    }

    static func withoutRequestID(_ text: String) -> String {
        text.replacing(/[0-9a-f]{16}/, with: "…")
    }

    // MARK: Pages

    @Test func theIndexAndEveryFirstPageAreTheSame() throws {
        for target in [
            "/", "/index.json", "/producers", "/producers.json", "/wines", "/wines.json", "/grapes", "/grapes.json", "/stock", "/stock.json",
            "/cheap_wines?sort=id", "/cheap_wines.json?sort=id", "/readings", "/readings.json", "/documents", "/documents.json",
        ] {
            try expectSame(target)
        }
    }

    /// A view has no key to break ties: each engine orders tied rows as it finds them, so a view's
    /// pages are compared in an order without ties.
    @Test func pagesByOffsetAndLimitAreTheSame() throws {
        for target in [
            "/wines.json?limit=7", "/wines.json?offset=140&limit=7", "/wines.json?offset=149", "/wines.json?offset=500", "/wines?limit=3&offset=2",
            "/cheap_wines.json?sort=-price&sort=id&limit=5&offset=5",
        ] {
            try expectSame(target)
        }
    }

    @Test(arguments: [
        "vintage", "-vintage", "price", "-price", "notes", "-notes", "label", "-label", "producer_id&sort=-price", "-notes&sort=vintage&sort=-name",
        "name",
        "-name", "limit", "we%22ird%20col&sort=-id",
    ])
    func sortsWithNullsAreTheSame(sort: String) throws {
        try expectSame("/wines.json?sort=\(sort)&limit=40")
        try expectSame("/wines?sort=\(sort)&limit=40")
    }

    @Test func filtersOfEveryOperatorAreTheSame() throws {
        let filters = [
            "vintage=2003", "vintage__exact=2001", "vintage__gt=2002", "vintage__gte=2002", "vintage__lt=2002", "vintage__lte=2002",
            "price=12.25", "price__gt=30", "price__lte=1.25", "name__contains=Wine%201", "name__contains=%25", "name__contains=%3Cb",
            "notes__contains=oak", "vintage__contains=03", "notes__isnull=1", "notes__isnull=0", "producer_id__isnull=true", "name__gt=Wine%205",
            "name__lt=%3C", "we%22ird%20col=v1", "producer_id=2&vintage__gte=2003&notes__isnull=false", "label__isnull=0", "name=Wine%2010",
            "name__icontains=WINE%201", "notes__icontains=OAK", "name__icontains=%25", "name__icontains=_", "vintage__icontains=03",
            "name__icontains=CH%C3%82TEAU",
        ]
        for filter in filters {
            try expectSame("/wines.json?\(filter)")
            try expectSame("/wines?\(filter)&sort=-price")
        }
        for filter in ["color=red", "name__gt=a", "color__isnull=1", "name__contains=%2C"] { try expectSame("/grapes.json?\(filter)") }
        for filter in ["bottles__gte=2", "cellar=100%25", "cellar__contains=%E2%9C%A8"] { try expectSame("/stock.json?\(filter)&sort=-bottles") }
    }

    /// Facets count the same values in the same order on both engines (NULL first among ties), with
    /// their labels, links and suggestions; so do the columns layout's headers, chips and status line.
    @Test func facetsAndTheExploreControlsAreTheSame() throws {
        for target in [
            "/wines.json?facet=vintage&facet=producer_id&facet=notes", "/wines?facet=price&facet_size=5&vintage__gte=2002",
            "/wines?facet=vintage&vintage=2003&sort=-price", "/wines.json?facet=label", "/documents.json?facet=body&facet=shape",
            "/grapes?facet=color", "/stock.json?facet=cellar&sort=-bottles", "/wines?sort=-vintage&name__icontains=wine&producer_id__isnull=0",
        ] {
            try expectSame(target)
        }
    }

    /// json, point and xml have no order or equality in PostgreSQL, and a composite's values cannot
    /// be bound: their text is compared, as SQLite compares the same text. varchar and text[] have
    /// their own.
    @Test func columnsOfTypesWithoutAnOrderSortAndFilterByTheirText() throws {
        for filter in [
            "body=%7B%22a%22%3A1%7D", "body__gt=%7B", "body__lte=%5B1", "body__contains=html", "body__isnull=1", "shape=(1,2)", "shape__gte=(2",
            "markup=%3Cm%3E3%3C/m%3E", "markup__lt=%3Cm%3E2", "tags=%7Ba,b%7D", "title__gt=Doc%203", "sort=-body", "sort=shape&sort=-markup",
            "pair=(1,w2)", "pair__gt=(1", "sort=-pair&sort=title",
        ] {
            try expectSame("/documents.json?\(filter)")
            try expectSame("/documents?\(filter)")
        }
    }

    @Test func hostileValuesInParametersAreTheSame() throws {
        for value in PostgresListFixture.hostile + ["\" OR 1=1 --", "$1", "?", "%", "_", "\\", "' OR ''='", "Robert'); DROP TABLE wines;--"] {
            let encoded = percentEncoded(value)
            try expectSame("/wines.json?name=\(encoded)")
            try expectSame("/wines.json?name__contains=\(encoded)")
            try expectSame("/wines.json?name__gte=\(encoded)&sort=name")
            try expectSame("/grapes/\(encoded)", status: Set(["%", "'; --"]).contains(value) ? 200 : 404)
        }
        // Values that do not fit the column: the same 400 from both.
        for target in ["/wines.json?vintage=abc", "/wines.json?price=1e999", "/wines.json?vintage__isnull=maybe", "/wines.json?vintage__gt=1.5"] {
            try expectSame(target, status: 400)
        }
    }

    // MARK: Cursors

    @Test(arguments: [
        "/wines.json?limit=7", "/wines.json?sort=vintage&limit=7", "/wines.json?sort=-price&limit=9", "/wines.json?sort=notes&sort=-vintage&limit=11",
        "/wines.json?sort=-label&sort=name&limit=13", "/wines.json?sort=producer_id&producer_id__isnull=0&limit=10", "/grapes.json?limit=3",
        "/grapes.json?sort=-color&limit=2", "/stock.json?sort=-bottles&limit=4", "/stock.json?sort=bottles&sort=-bin&limit=6",
        "/documents.json?sort=body&limit=3", "/documents.json?sort=-shape&sort=markup&limit=4", "/documents.json?sort=-markup&limit=5",
        "/documents.json?sort=title&sort=-body&limit=2", "/documents.json?sort=pair&limit=3",
    ])
    func cursorsWalkedToTheEndAreTheSame(start: String) throws {
        let fixture = try fixture
        var sqliteNext: String? = start
        var pages = 0
        var rows = 0
        while let target = sqliteNext, pages < 100 {
            let sqlite = try fixture.sqlite.json(target)
            let postgres = try fixture.postgres.json(target)
            #expect(sqlite == postgres, "\(target)")
            rows += sqlite.rows.count
            pages += 1
            sqliteNext = sqlite["links"]?["next"]?.string
            #expect(sqliteNext == postgres["links"]?["next"]?.string)
            // The HTML page at the same cursor, too.
            try expectSame(target.replacing(".json?", with: "?"))
        }
        #expect(sqliteNext == nil, "the walk ended")
        let total = try fixture.sqlite.json(start.replacing(/limit=\d+/, with: "limit=1000"))
        #expect(rows == total.rows.count && rows > 0)
    }

    // MARK: Details and links

    @Test func detailsAndForeignKeyLinksAreTheSame() throws {
        let fixture = try fixture
        for target in [
            "/wines/1", "/wines/2", "/wines/10", "/wines/9", "/wines/150", "/wines/151", "/wines/abc", "/producers/3", "/producers/5",
            "/grapes/" + percentEncoded("q?a#b&c=d"), "/grapes/%20lead%20space", "/grapes/nothing",
            "/stock/" + percentEncoded("North, 1".replacing(",", with: "%2C")) + ",5",
            "/stock/" + percentEncoded("Cave ✨") + ",3", "/stock/1,2,3",
        ] {
            try expectSame(target, status: nil)
            try expectSame(target, status: nil, headers: [("Accept", "application/json")])
        }
        // A wine's producer is a link to the producer's detail, labelled by its name.
        let page = try fixture.postgres.get("/wines?limit=6")
        #expect(page.text.contains(#"<a href="/producers/4">Bodega &quot;Q&quot;</a>"#), "\(page.text.prefix(3000))")
        #expect(page.text.contains(#"<a href="/producers/5">&#39;; DROP TABLE producers; --</a>"#))
    }

    // MARK: Errors

    @Test func errorsAreTheSame() throws {
        let fixture = try fixture
        for target in [
            "/wines.json?nope=1", "/wines.json?name__nope=1", "/wines.json?sort=nope", "/wines.json?sort=-%22", "/wines.json?cursor=garbage",
            "/grapes.json?q=oak", "/wines.json?limit=-1", "/wines.json?offset=x", "/cheap_wines.json?cursor=abc", "/nope.json", "/wines/1/2",
        ] {
            try expectSame(target, status: nil)
            #expect(try fixture.sqlite.get(target).status >= 400)
        }
    }

    // MARK: Rights and validators

    @Test func aRoleWithSelectAloneServesTheListsItMayRead() throws {
        let fixture = try fixture
        let index = try fixture.postgres.json("/index.json")
        let paths = index.rows.compactMap { $0["item"]?["path"]?.string }
        #expect(paths == ["/cheap_wines", "/documents", "/grapes", "/producers", "/readings", "/stock", "/wines", "/-/query"])
        #expect(try fixture.postgres.get("/secrets").status == 404)
        let schema = try Database(postgres: PostgresConnectionInfo(fixture.readerURL)).schema
        #expect(schema.unreadable["secrets"] != nil)
        #expect(schema.table(named: "wines")?.primaryKey == ["id"])
        #expect(schema.table(named: "stock")?.primaryKey == ["cellar", "bin"])
        #expect(
            schema.table(named: "wines")?.foreignKeys == [
                ForeignKey(columns: ["producer_id"], referencedTable: "producers", referencedColumns: ["id"])
            ])
        #expect(schema.table(named: "cheap_wines")?.kind == .view)
        #expect(schema.table(named: "wines")?.columns.map(\.affinity) == [.integer, .text, .integer, .integer, .real, .text, .blob, .integer, .text])
    }

    /// A page's ETag is a hash of its bytes: two servers over the same database (two replicas)
    /// give the same one, and either answers the other's with a 304.
    @Test func replicasGiveTheSameETag() throws {
        let fixture = try fixture
        let replica = try ListTestServer(serving: Database(postgres: PostgresConnectionInfo(fixture.readerURL)))
        for target in ["/wines?limit=5", "/wines.json?sort=-price&limit=5", "/grapes.json"] {
            let first = try fixture.postgres.get(target)
            let second = try replica.get(target)
            let tag = try #require(first.headers["ETag"])
            #expect(second.headers["ETag"] == tag)
            #expect(try replica.get(target, headers: [("If-None-Match", tag)]).status == 304)
        }
    }

    /// A value PostgreSQL's text cannot hold (NUL) is the client's mistake, not a 500.
    @Test func aNULCharacterIsABadRequest() throws {
        let fixture = try fixture
        let answer = try fixture.postgres.get("/wines.json?name=a%00b")
        #expect(answer.status == 400, "\(answer.text)")
        #expect(try fixture.postgres.get("/grapes/a%00b").status == 400)
    }
}
