import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

@testable import CellarDatabase

/// Facets: each column's most common values among the rows the filters and search keep, counted
/// as `GROUP BY` counts them, with links that filter by a value; in the page and in the JSON.
extension DatabaseListHTTPTests {
    /// A facet's values and counts, as the reference query finds them: the most common first,
    /// ties in the column's order (NULL first).
    func referenceFacet(_ server: DatabaseTestServer, column: String, where condition: String = "1", size: Int = 30) throws -> [(
        String, Int64
    )] {
        try server.reference(
            "SELECT \(column), count(*) FROM wines WHERE \(condition) GROUP BY \(column) ORDER BY 2 DESC, 1 LIMIT \(size)"
        ).map { ($0[0].identifier, { if case .integer(let n) = $1 { n } else { -1 } }($0[0], $0[1])) }
    }

    static let facetCases: [(query: String, column: String, condition: String)] = [
        ("facet=vintage", "vintage", "1"),
        ("facet=producer_id", "producer_id", "1"),
        ("facet=price&facet_size=5", "price", "1"),
        ("facet=mixed", "mixed", "1"),
        ("facet=vintage&price__gt=20", "vintage", "price > 20"),
        ("facet=vintage&q=oak", "vintage", "id IN (SELECT rowid FROM wines_search WHERE wines_search MATCH 'oak')"),
        ("facet=notes&notes__icontains=OAK", "notes", "instr(lower(notes), 'oak') > 0"),
        ("facet=vintage&vintage=2003", "vintage", "vintage = 2003"),
        ("facet=limit&limit__exact=2", "\"limit\"", "\"limit\" = 2"),
    ]

    @Test(arguments: facetCases)
    func facetCountsEqualGroupBy(facet: (query: String, column: String, condition: String)) throws {
        let server = try Self.cellar()
        let size = facet.query.contains("facet_size=5") ? 5 : 30
        let expected = try referenceFacet(server, column: facet.column, where: facet.condition, size: size + 1)
        let json = try server.json("/wines.json?\(facet.query)&limit=3")
        let name = facet.column.replacing("\"", with: "")
        let found = try #require(json["facets"]?[name], "\(facet.query)")
        let values = found["values"]?.array ?? []
        #expect(values.count == min(expected.count, size), "\(facet.query)")
        #expect(found["truncated"] == .bool(expected.count > size), "\(facet.query)")
        #expect(found["timedOut"] == .bool(false))
        for (value, (text, count)) in zip(values, expected) {
            let shown: String =
                switch value["value"] {
                case .integer(let n): String(n)
                case .real(let r): r.description
                case .string(let s): s
                default: ""
                }
            #expect(shown == text || Double(shown) == Double(text), "\(facet.query): \(value)")
            #expect(value["count"] == .integer(count), "\(facet.query): \(text)")
        }
        // Following a value's link keeps exactly the rows that hold it, and marks it selected.
        if let first = values.first, let href = first["href"]?.string, first["selected"] == .bool(false) {
            let filtered = try server.json(href.replacing("/wines?", with: "/wines.json?"))
            #expect(filtered["meta"]?["total"] == first["count"], "\(href)")
            let selected = filtered["facets"]?[name]?["values"]?.array.first { $0["selected"] == .bool(true) }
            #expect(selected?["value"] == first["value"], "\(href)")
            // And the selected value's link takes the filter away again.
            let back = try #require(selected?["href"]?.string)
            #expect(try server.json(back.replacing("/wines?", with: "/wines.json?"))["meta"]?["total"] == json["meta"]?["total"])
        }
    }

    @Test func aForeignKeysFacetValuesCarryTheirLabelsAndNullIsAValue() throws {
        let server = try Self.cellar()
        let json = try server.json("/wines.json?facet=producer_id&limit=1")
        let values = try #require(json["facets"]?["producer_id"]?["values"]?.array)
        let null = try #require(values.first { $0["value"] == .null })
        #expect(null["href"]?.string == "/wines?facet=producer_id&limit=1&producer_id__isnull=1")
        #expect(values.first { $0["value"] == .integer(2) }?["label"]?.string == "Weingut Ä")
        let page = try server.get("/wines?facet=producer_id").text
        #expect(page.contains("<section class=\"facets\" id=\"list-live-header\" aria-label=\"Facets\">"))
        #expect(page.contains("&lt;b&gt;Bold&lt;/b&gt; &amp; Co"), "labels are escaped")
    }

    @Test func facetsAreBoundedAndCheckedAgainstTheTable() throws {
        let server = try Self.cellar()
        for bad in [
            "facet=nope", "facet_size=0", "facet_size=101", "facet_size=x",
            "facet=id&facet=name&facet=vintage&facet=price&facet=notes&facet=mixed",
        ] {
            let answer = try server.get("/wines.json?\(bad)")
            #expect(answer.status == 400, "\(bad)")
        }
        #expect(try server.get("/wines.json?facet=id&facet=name&facet=vintage&facet=price&facet=notes").status == 200)
    }

    @Test func facetsAreConfiguredPerTableAndFewValuedColumnsSuggested() throws {
        let configuration = try DatabaseConfiguration(yaml: "tables:\n  wines:\n    facets: [vintage]\n", file: "cellar.yaml")
        let server = try DatabaseTestServer(TemporaryDatabase(CellarFixture.sql), configuration: configuration)
        let json = try server.json("/wines.json?limit=1")
        #expect(json["facets"]?["vintage"]?["values"]?.array.isEmpty == false)
        // Suggested: columns with a few values (not the key, not one already shown).
        let suggested = json["suggestedFacets"]?.array.compactMap { $0["name"]?.string } ?? []
        #expect(suggested.contains("producer_id") && !suggested.contains("vintage") && !suggested.contains("id"), "\(suggested)")
        #expect(try server.get("/wines?facet=vintage").text.contains("<h2>vintage</h2>"), "a configured facet cannot be removed")
        #expect(throws: ConfigurationError.self) {
            let bad = try DatabaseConfiguration(yaml: "tables:\n  wines:\n    facets: [nope]\n", file: "cellar.yaml")
            _ = try DatabaseTestServer(TemporaryDatabase(CellarFixture.sql), configuration: bad)
        }
    }

    /// A facet that cannot be counted within the time limit says so, and the page still answers.
    @Test func aFacetOverTheTimeLimitIsMarkedAndThePageAnswers() throws {
        var options = DatabaseOptions()
        options.timeLimit = 0.3
        let server = try DatabaseTestServer(
            TemporaryDatabase(
                """
                CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER);
                INSERT INTO t VALUES (1, 1), (2, 2);
                CREATE VIEW endless AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500000000) SELECT i % 3 AS k FROM n;
                """), options: options)
        let json = try server.json("/endless.json?facet=k&limit=2")
        #expect(json["facets"]?["k"]?["timedOut"] == .bool(true))
        #expect(json.rows.count == 2)
        let page = try server.get("/endless?facet=k&limit=2")
        #expect(page.status == 200)
        #expect(page.text.contains("Counting took longer than the time limit"))
    }

    /// `--no-facet-cache` (for measuring what the cache saves): every page counts its facets
    /// afresh, with the same counts; with the cache, the second page reads them from it. Either
    /// way a write by another connection is counted on the next page.
    @Test(arguments: [true, false])
    func theFacetCacheCanBeTurnedOffWithTheSameCounts(caches: Bool) throws {
        var options = DatabaseOptions()
        options.cachesFacets = caches
        let file = try TemporaryDatabase(CellarFixture.sql)
        let database = try Database(path: file.path, options: options)
        let server = try ListTestServer(serving: database)
        let path = "/wines.json?facet=vintage&facet=producer_id&limit=3"
        let first = try server.json(path)
        let second = try server.json(path)
        #expect(first["facets"] == second["facets"])
        #expect(database.facets.hits == (caches ? 2 : 0))
        #expect(database.suggestedFacets.hits == (caches ? 1 : 0))
        let vintage = try #require(first["facets"]?["vintage"]?["values"]?.array.first)
        let top = try #require(vintage["value"]?.integer)
        try file.writer().execute("INSERT INTO wines(id, name, vintage) VALUES (1000, 'Written elsewhere', \(top))")
        let after = try server.json(path)
        let counted = try #require(after["facets"]?["vintage"]?["values"]?.array.first)
        #expect(counted["value"] == vintage["value"])
        #expect(counted["count"]?.integer == vintage["count"]?.integer.map { $0 + 1 })
        #expect(database.facets.hits == (caches ? 2 : 0))
    }
}
