import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// Rows one by one: details by every kind of key, foreign keys' links, the JSON items' types, and
/// markup in data, names and titles escaped on the pages.
extension DatabaseListHTTPTests {
    // MARK: Details

    @Test func aRowsDetailIsFoundByItsIntegerKeyAsAPageAndAsJSON() throws {
        let server = try Self.cellar()
        let columns = ["id", "name", "producer_id", "vintage", "price", "notes", "label", "mixed", "limit", "select", "we\"ird col"]
        for id in [1, 3, 4, 10, 150] {
            let reference = try #require(try server.reference("SELECT * FROM wines WHERE id = ?", [.integer(Int64(id))]).first)
            let json = try server.json("/wines/\(id).json")
            #expect(json["id"]?.string == String(id))
            #expect(json["title"] == reference[1].json)
            #expect(json["item"] == .object(Dictionary(uniqueKeysWithValues: zip(columns, reference.map(\.json)))), "wine \(id)")
            #expect(json["links"]?["self"]?.string == "/wines/\(id)")
            let accepted = try server.json("/wines/\(id)", headers: [("Accept", "application/json")])
            #expect(accepted["item"] == json["item"])
            let page = try server.get("/wines/\(id)")
            #expect(page.status == 200)
            #expect(page.text.contains("<h1>\(Self.escaped(reference[1].identifier))</h1>"))
        }
        for missing in ["151", "0", "-1", "abc", "1.5", "99999999999999999999", "1%2C2", "%20"] {
            #expect(try server.get("/wines/\(missing)").status == 404, "\(missing)")
            #expect(try server.get("/wines/\(missing).json").status == 404, "\(missing).json")
        }
    }

    @Test func aTextKeyWithSpacesCommasPercentsAndSlashesLeadsToItsRow() throws {
        let server = try Self.cellar()
        let rows = try server.json("/grapes.json").rows
        let names = try server.reference("SELECT name, color FROM grapes ORDER BY name")
        #expect(rows.count == names.count)
        for (row, reference) in zip(rows, names) {
            let name = reference[0].identifier
            #expect(row["id"]?.string == name)
            let href = try #require(row["href"]?.string)
            #expect(href == "/grapes/" + percentEncoded(name))
            let json = try server.json(href + ".json")
            #expect(json["item"]?["name"]?.string == name, "\(href)")
            #expect(json["item"]?["color"] == reference[1].json)
            #expect(json["id"]?.string == name)
            let page = try server.get(href)
            #expect(page.status == 200, "\(href)")
            #expect(page.text.contains(Self.escaped(name)))
        }
        for missing in ["nope", "Pinot%20noir", "a%2Cb%2Cc", "x", "50%2C"] {
            #expect(try server.get("/grapes/\(missing)").status == 404, "\(missing)")
        }
    }

    @Test func aTextKeyThatEndsInJSONLeadsToItsRowsPage() throws {
        let server = try DatabaseTestServer(
            TemporaryDatabase("CREATE TABLE files(name TEXT PRIMARY KEY, size INTEGER); INSERT INTO files VALUES ('a.json', 1), ('b', 2);"))
        let row = try #require(try server.json("/files.json").rows.first)
        let href = try #require(row["href"]?.string)
        #expect(href == "/files/a.json")
        #expect(try server.json(href + ".json")["item"]?["size"] == .integer(1))
        let page = try server.get(href)
        // No row `a`: the route reads the whole segment as the row's identifier, and answers a page.
        #expect(page.status == 200, "\(href): \(page.status)")
        #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true)
    }

    @Test(arguments: [
        ("/stock", "SELECT cellar, bin, wine_id, bottles FROM stock ORDER BY cellar, bin", ["cellar", "bin", "wine_id", "bottles"]),
        ("/regions", "SELECT country, code, label FROM regions ORDER BY country, code", ["country", "code", "label"]),
    ])
    func aCompoundKeyLeadsToItsRowWithItsPartsEncoded(list: String, reference: String, columns: [String]) throws {
        let server = try Self.cellar()
        let rows = try server.walk("\(list).json?limit=1000").rows
        let expected = try server.reference(reference)
        #expect(rows.count == expected.count)
        for (row, values) in zip(rows, expected) {
            let id = Self.compoundID(Array(values.prefix(2)))
            #expect(row["id"]?.string == id)
            let href = try #require(row["href"]?.string)
            #expect(href == "\(list)/" + percentEncoded(id))
            let json = try server.json(href + ".json")
            #expect(json["item"] == .object(Dictionary(uniqueKeysWithValues: zip(columns, values.map(\.json)))), "\(href)")
            #expect(try server.get(href).status == 200, "\(href)")
        }
        let first = try #require(expected.first)
        for missing in [percentEncoded(first[0].identifier), percentEncoded(Self.compoundID(first) + ",x"), "a,b,c", "%2C", ","] {
            #expect(try server.get("\(list)/\(missing)").status == 404, "\(missing)")
        }
        #expect(try server.get("/stock/100%2525,notanumber").status == 404)
    }

    @Test func aRowIDTableIsKeyedByItsRowID() throws {
        let server = try Self.cellar()
        let reference = try server.reference("SELECT rowid, wine_id, score, note FROM tasting_notes WHERE rowid = 5")[0]
        let row = try #require(try server.json("/tasting_notes.json?limit=5").rows.last)
        #expect(row["id"]?.string == "5")
        #expect(row["href"]?.string == "/tasting_notes/5")
        let detail = try server.json("/tasting_notes/5.json")
        #expect(detail["item"] == .object(["wine_id": reference[1].json, "score": reference[2].json, "note": reference[3].json]))
        #expect(try server.get("/tasting_notes/41").status == 404)
        #expect(try server.get("/tasting_notes/five").status == 404)
    }

    @Test func aViewHasNoDetailRoute() throws {
        let server = try Self.cellar()
        #expect(try server.get("/cheap_wines/1").status == 404)
        #expect(try server.get("/cheap_wines/1.json").status == 404)
        #expect(try server.get("/cheap_wines/1", headers: [("Accept", "application/json")]).status == 404)
        let page = try server.get("/cheap_wines")
        #expect(page.status == 200)
        // No row's link: the schema's page (`/cheap_wines/-/schema`) is the view's only path below it.
        #expect(!page.text.replacing("href=\"/cheap_wines/-/schema", with: "").contains("href=\"/cheap_wines/"))
    }

    @Test func foreignKeysLinkToTheRowsTheyReferenceLabelledByThem() throws {
        let server = try Self.cellar()
        // Wine 1's producer is 2, wine 2's is 3 (whose name holds markup); stock's wine_id links to wines.
        let wines = try server.get("/wines?limit=2")
        #expect(wines.text.contains("<a href=\"/producers/2\">Weingut Ä</a>"), "\(wines.text)")
        #expect(wines.text.contains("<a href=\"/producers/3\">&lt;b&gt;Bold&lt;/b&gt; &amp; Co</a>"), "\(wines.text)")
        #expect(try server.json("/producers/3.json")["title"]?.string == "<b>Bold</b> & Co")
        let stock = try server.get("/stock/100%2525%2C1")
        #expect(stock.status == 200)
        let wine = try #require(
            try server.reference("SELECT wines.id, wines.name FROM stock JOIN wines ON wines.id = wine_id WHERE cellar = '100%' AND bin = 1").first)
        #expect(stock.text.contains("<a href=\"/wines/\(wine[0].identifier)\">\(wine[1].identifier)</a>"), "\(stock.text)")
        #expect(try server.get("/wines/\(wine[0].identifier)").status == 200)
        // A NULL reference links nowhere.
        let orphan = try server.get("/wines/9")
        #expect(!orphan.text.contains("href=\"/producers/"))
    }

    // MARK: JSON items

    @Test func itemsKeepEachValuesType() throws {
        let server = try Self.cellar()
        let response = try server.get("/samples.json")
        #expect(response.status == 200)
        let text = response.text
        for raw in [
            "\"i\":42,", "\"r\":2.5,", "\"n\":null,", "\"b\":{\"$base64\":\"AP8Q/g==\"}", "\"big\":9007199254740993,",
            "\"big\":-9223372036854775808,", "\"b\":{\"$base64\":\"\"}", "\"nul\":\"a\\u0000b\"", "\"t\":\"\",",
        ] {
            #expect(text.contains(raw), "\(raw) in \(text)")
        }
        let rows = try JSON.parse(response.body).rows
        let first = try #require(rows.first?["item"])
        #expect(first["i"] == .integer(42))
        #expect(first["r"] == .real(2.5))
        #expect(first["t"] == .string("text \"quoted\" <b>x</b> é 🍷"))
        #expect(first["n"] == .null)
        #expect(first["big"] == .integer(9_007_199_254_740_993))
        #expect(first["far"] == .real(-1.0e300))
        #expect(first["nul"] == .string("a\u{0}b"))
        #expect(first["bad"] == .string("A\u{FFFD}"), "text that is not UTF-8 is repaired")
        let second = try #require(rows.last?["item"])
        #expect(second["i"] == .integer(-7))
        #expect(second["r"] == .real(0.1))
        #expect(second["far"] == .real(3.0))
        #expect(second["big"] == .integer(Int64.min))
        // The detail's item is the same.
        #expect(try server.json("/samples/1.json")["item"] == first)
        // The page shows blobs by their size and NULL as such.
        let page = try server.get("/samples")
        #expect(page.text.contains("(4-byte blob)"))
        #expect(page.text.contains("class=\"null\">NULL"))
        #expect(!page.body.contains(0), "no NUL byte reaches the page")
    }

    // MARK: Pages

    @Test func thePageHasItsRowsALoadMoreLinkAndEscapesMarkupInData() throws {
        let server = try Self.cellar()
        let page = try server.get("/wines?limit=5")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(HTMLRows.identifiers(page.text) == ["1", "2", "3", "4", "5"])
        let more = try #require(HTMLRows.loadMoreLink(page.text))
        #expect(more.hasPrefix("/wines?cursor="))
        #expect(HTMLRows.identifiers(try server.get(more).text) == ["6", "7", "8", "9", "10"])
        #expect(page.text.contains("&lt;b&gt;x&lt;/b&gt; Château"))
        #expect(!page.text.contains("<b>"), "no markup from the data")
        let notes = try server.get("/wines?notes__contains=bold&limit=3")
        #expect(notes.text.contains("&lt;b&gt;bold&lt;/b&gt;"))
        #expect(!notes.text.contains("<b>"))
        let producers = try server.get("/producers")
        #expect(producers.text.contains("&lt;b&gt;Bold&lt;/b&gt; &amp; Co"))
        #expect(!producers.text.contains("<b>"))
        let detail = try server.get("/wines/3")
        #expect(!detail.text.contains("<b>"))
        let grape = try server.get("/grapes/%3Cb%3Ex%3C%2Fb%3E")
        #expect(grape.status == 200)
        #expect(!grape.text.contains("<b>"))
    }

    @Test func markupInTableAndColumnNamesIsEscaped() throws {
        let server = try DatabaseTestServer(TemporaryDatabase(CellarFixture.names))
        let path = try #require(server.mounted.first { $0.table == "<b>x</b>" }?.path)
        for target in [path, path + "?fragment=rows", "/", path + "/1", path + "/2"] {
            let page = try server.get(target)
            #expect(page.status == 200, "\(target)")
            #expect(!page.text.contains("<b>"), "\(target)")
            #expect(!page.text.contains("<i>"), "\(target)")
            #expect(!page.text.contains("<script>"), "\(target)")
        }
        #expect(try server.get(path).text.contains("&lt;b&gt;x&lt;/b&gt;"))
        let json = try server.json(path + ".json")
        #expect(json["title"]?.string == "<b>x</b>")
        #expect(json.rows.first?["item"]?["<i>c</i>"]?.string == "<b>x</b> marker")
        let select = try server.get("/select")
        #expect(select.text.contains(">group</a></th>"), "a column header")
        #expect(select.text.contains("&lt;b&gt;x&lt;/b&gt;"))
        #expect(try server.json("/select.json?from=select%20marker").rows.count == 1)
        #expect(try server.json("/select.json?sort=-group&sort=from").rows.count == 2)
        #expect(try server.json("/we%22ird.json?x%22y__contains=%22").rows.count == 1)
        #expect(try server.json("/my%20table.json?a%22b__isnull=1").rows.count == 1)
        #expect(try server.json("/caf%C3%A9%20%E2%98%95.json?prix%20%E2%82%AC__gt=9")["meta"]?["total"] == .integer(1))
    }

    @Test func theRowsFragmentAnswersToTheQueryAndToHTMX() throws {
        let server = try Self.cellar()
        for (target, headers) in [("/wines?fragment=rows&limit=4", [(String, String)]()), ("/wines?limit=4", [("HX-Request", "true")])] {
            let response = try server.get(target, headers: headers)
            #expect(response.status == 200)
            #expect(!response.text.contains("<html"), "\(target)")
            #expect(HTMLRows.identifiers(response.text) == ["1", "2", "3", "4"])
            #expect(HTMLRows.loadMoreLink(response.text)?.contains("cursor=") == true)
        }
    }
}
