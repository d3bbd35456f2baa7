import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// The formats of a database's lists: the query's JSON names its columns, the CSV disarms
/// spreadsheet formulas, each page links its JSON and CSV once, and a search keeps the filters.
extension QueryHTTPTests {
    /// `/-/query.json` has `columns`: the result's names in the statement's order, an empty
    /// result's too (as Datasette's JSON has them).
    @Test func theQueryJSONNamesItsColumnsInOrder() throws {
        let server = try Self.cellar()
        for sql in ["SELECT name, id, 3 AS \"z <a>\" FROM wines ORDER BY id LIMIT 2", "SELECT name, id, 3 AS \"z <a>\" FROM wines WHERE 0"] {
            let page = try server.json(Self.target(sql))
            #expect(page["columns"]?.array.compactMap(\.string) == ["name", "id", "z <a>"], "\(sql)")
        }
        #expect(try server.json("/-/query.json")["columns"]?.array.isEmpty == true)
    }

    /// A text a spreadsheet would run gets a `'` before it; numbers, and texts that are numbers, do not.
    @Test func theCSVDisarmsFormulas() throws {
        let server = try Self.cellar()
        let sql = "SELECT '=1+2' AS a, '@SUM(A1)' AS b, '+1 555' AS c, '-5' AS d, -5 AS e, '=HYPERLINK(\"x\",\"y\")' AS f"
        let csv = try server.get(Self.target(sql, "/-/query.csv"))
        #expect(csv.status == 200)
        #expect(csv.text == "a,b,c,d,e,f\r\n'=1+2,'@SUM(A1),'+1 555,-5,-5,\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"\r\n")
    }

    /// A table's page links its JSON and CSV in its status line alone, with its query; its search
    /// form keeps the filters and the order as hidden inputs.
    @Test func aTablePageLinksItsFormatsOnceAndItsSearchKeepsTheFilters() throws {
        let server = try DatabaseListHTTPTests.cellar()
        let page = try server.get("/wines?q=oak&vintage__gte=2002&sort=-price&limit=5&offset=5").text
        let alternates = page.matches(of: /<a rel="alternate" type="([^"]*)" href="([^"]*)">/).map { "\($0.output.1) \($0.output.2)" }
        #expect(
            alternates == [
                "application/json /wines.json?q=oak&amp;vintage__gte=2002&amp;sort=-price&amp;limit=5",
                "text/csv /wines.csv?q=oak&amp;vintage__gte=2002&amp;sort=-price&amp;limit=5",
            ])
        #expect(!page.contains("class=\"list-formats\""))
        let search = try #require(page.firstMatch(of: /<form class="search" role="search"[^>]*>.*?<\/form>/.dotMatchesNewlines()))
        let hidden = search.output.matches(of: /<input type="hidden" name="([^"]*)" value="([^"]*)">/).map { "\($0.output.1)=\($0.output.2)" }
        #expect(hidden == ["vintage__gte=2002", "sort=-price", "limit=5"])
        // The search it sends keeps them.
        let searched = try server.json("/wines.json?q=oak&vintage__gte=2002&sort=-price&limit=5")
        #expect(searched.rows.allSatisfy { ($0["item"]?["vintage"]?.integer ?? 0) >= 2002 })
    }
}
