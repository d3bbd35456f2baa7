import Foundation
import HTTPTestSupport
import Testing

/// Every showcase URL in every format, over real sockets: the page, the rows fragment (by query
/// and by `HX-Request`), JSON (by `Accept` and by `.json`), and the detail of a row.
extension CellarHTTPTests {
    @Suite struct ShowcaseFormats {
        @Test(arguments: ShowcaseList.all)
        func page(_ list: ShowcaseList) throws {
            let server = try TestServer.showcase()
            let response = try server.get(list.path)
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(response.headers["Vary"] == "Accept, HX-Request")
            #expect(response.text.hasPrefix("<!doctype html>\n<html lang=\"en\">"))
            #expect(response.text.hasSuffix("</html>\n"))

            let elements = try HTMLInspector.elements(response.body)
            #expect(elements.filter { $0.tag == "h1" }.map(\.text) == [list.title])
            #expect(elements.first { $0.tag == "title" }?.text == list.title + " · Cellar")
            #expect(elements.contains { $0.tag == "nav" && $0.hasClass("pager") })
            #expect(elements.contains { $0.tag == "p" && $0.attributes["role"] == "status" })
            // The site navigation marks the current list.
            #expect(elements.contains { $0.tag == "a" && $0.attributes["href"] == list.path && $0.attributes["aria-current"] == "page" })
            let rows = elements.filter { $0.tag == "li" && $0.hasClass("cell") }
            if list.showsLoadingPlaceholder {
                #expect(rows.isEmpty)
                #expect(elements.contains { $0.hasClass("loading") })
            } else {
                #expect(rows.count == list.firstPageRows)
                #expect(rows.allSatisfy { $0.attributes["id"]?.hasPrefix("row-") == true })
                let headers = elements.filter { $0.tag == "h2" && $0.hasClass("section-header") }.map(\.text)
                let footers = elements.filter { $0.tag == "p" && $0.hasClass("section-footer") }.map(\.text)
                #expect(headers == list.sections.compactMap(\.header))
                #expect(footers == list.sections.compactMap(\.footer))
                #expect(elements.filter { $0.tag == "section" && $0.hasClass("table-section") }.count == list.sections.count)
            }
        }

        @Test(arguments: ShowcaseList.all)
        func fragmentByQueryAndByHXRequest(_ list: ShowcaseList) throws {
            let server = try TestServer.showcase()
            let byQuery = try server.get(list.path + "?fragment=rows")
            let byHeader = try server.get(list.path, headers: [("HX-Request", "true")])
            for response in [byQuery, byHeader] {
                #expect(response.status == 200)
                #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
                #expect(response.headers["Vary"] == "Accept, HX-Request")
                let text = response.text
                #expect(!text.contains("<html") && !text.contains("<!doctype") && !text.contains("<head") && !text.contains("<h1"))
                #expect(text.hasPrefix("<section class=\"table-section\""))
                #expect(text.hasSuffix("</nav>\n"))
                let elements = try HTMLInspector.elements(response.body)
                #expect(elements.filter { $0.tag == "li" && $0.hasClass("cell") }.count == list.firstPageRows)
                #expect(elements.filter { $0.tag == "nav" && $0.hasClass("pager") }.count == 1)
                #expect(elements.filter { $0.tag == "section" }.count == list.sections.count)
            }
            // The same rows either way (Reports renders rows for both; the page shows a placeholder instead).
            #expect(byQuery.body == byHeader.body)
        }

        @Test(arguments: ShowcaseList.all)
        func json(_ list: ShowcaseList) throws {
            let server = try TestServer.showcase()
            let byAccept = try server.getAcceptingJSON(list.path)
            let byPath = try server.get(list.jsonPath)
            for (response, linkPath) in [(byAccept, list.path), (byPath, list.jsonPath)] {
                #expect(response.status == 200)
                #expect(response.headers["Content-Type"] == "application/json")
                #expect(response.headers["Vary"] == "Accept, HX-Request")
                let raw = try response.json()
                #expect(raw.keys.isSuperset(of: ["title", "list", "meta", "links", "sections"]))
                #expect(raw["links"]?.keys == ["self", "first", "prev", "next"])
                #expect(raw["meta"]?.keys == ["offset", "limit", "total", "totalIsExact", "maxLimit", "requestedLimit", "limitClamped"])

                let json = try ListJSON(parsing: response.body)
                #expect(json.title == list.title)
                #expect(json.list == list.path)
                #expect(json.sections.map { ShowcaseList.SectionTitles(header: $0.header, footer: $0.footer) } == list.sections)
                #expect(json.sections.map(\.index) == Array(0..<list.sections.count))
                #expect(Set(json.sections.map(\.id)).count == json.sections.count, "section ids are unique")
                #expect(json.rows.count == list.firstPageRows)
                #expect(Set(json.rows.map(\.id)).count == json.rows.count, "row ids are unique")
                #expect(Set(json.rows.map(\.cell)) == list.cells)
                for row in json.rows {
                    #expect(!row.id.isEmpty)
                    #expect(row.item != nil && row.item != .null, "row \(row.id) has an item")
                    if list.detailRow != nil {
                        #expect(row.href?.hasPrefix(list.path + "/") == true)
                    } else {
                        #expect(row.href == nil, "rows without a detail route have no detail link")
                    }
                }
                let limit = list.defaultLimit ?? list.total
                #expect(
                    json.meta == .init(offset: 0, limit: limit, total: list.total, maxLimit: list.maxLimit, requestedLimit: nil, limitClamped: false))
                #expect(json.links.current == "\(linkPath)?offset=0&limit=\(limit)")
                #expect(json.links.first == "\(linkPath)?offset=0&limit=\(limit)")
                #expect(json.links.prev == nil)
                #expect(json.links.next == (list.total > limit ? "\(linkPath)?offset=\(limit)&limit=\(limit)" : nil))
            }
        }

        @Test(arguments: ShowcaseList.all.filter { $0.detailRow != nil && !$0.detailIsAList })
        func detail(_ list: ShowcaseList) throws {
            let server = try TestServer.showcase()
            let json = try server.list(list.jsonPath)
            let identifier = try #require(list.detailRow)
            let row = try #require(json.rows.first { $0.id == identifier }, "row \(identifier) is on the first page")
            let href = try #require(row.href)

            let page = try server.get(href)
            #expect(page.status == 200)
            #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(page.text.hasPrefix("<!doctype html>"))
            let elements = try HTMLInspector.elements(page.body)
            #expect(elements.contains { $0.tag == "dl" && $0.hasClass("detail") })
            #expect(elements.contains { $0.tag == "a" && $0.attributes["href"] == list.path && $0.text.hasPrefix("Back to ") })

            let byPath = try server.get(href + ".json")
            let byAccept = try server.getAcceptingJSON(href)
            for response in [byPath, byAccept] {
                #expect(response.status == 200)
                #expect(response.headers["Content-Type"] == "application/json")
                let detail = try DetailJSON(parsing: response.body)
                #expect(detail.id == identifier)
                #expect(detail.cell == row.cell)
                #expect(detail.item == row.item)
                #expect(detail.links.current == href)
                #expect(detail.links.list == list.path)
                #expect(!detail.fields.isEmpty)
                // The page shows the same title and fields.
                #expect(elements.filter { $0.tag == "h1" }.map(\.text) == [detail.title])
                #expect(elements.filter { $0.tag == "dt" }.map(\.text) == detail.fields.map(\.label))
                #expect(elements.filter { $0.tag == "dd" }.map(\.text) == detail.fields.map(\.value))
            }
        }

        @Test func detailOfAPerson() throws {
            let server = try TestServer.showcase()
            let detail = try DetailJSON(parsing: try server.get("/people/13.json").body)
            let person = try #require(try server.list("/people.json").rows.first { $0.id == "13" })
            #expect(detail.title == person.item?["name"]?.string)
            #expect(detail.fields.first { $0.label == "ID" }?.value == "13")
            #expect(person.href == "/people/13")
            #expect(person.item?["id"] == .integer(13))
            #expect(person.item?.keys == ["id", "name", "role", "email", "bio"])
            // Person 13 has markup in the name: the page shows it as text (checked by parsing).
            let page = try server.get("/people/13")
            let heading = try HTMLInspector.elements(page.body).first { $0.tag == "h1" }
            #expect(heading?.text == detail.title)
            #expect(detail.title.contains("<"))
        }

        @Test func unknownRowsAndListsAre404() throws {
            let server = try TestServer.showcase()
            for target in ["/people/0", "/people/301", "/people/abc", "/people/1.5", "/settings/nope", "/big/0"] {
                let page = try server.get(target)
                #expect(page.status == 404, "\(target)")
                #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
                #expect(page.text.contains("has no row"), "\(target): the page says which row is missing")
                let json = try server.getAcceptingJSON(target)
                #expect(json.status == 404)
                let error = try ErrorJSON(parsing: json.body)
                #expect(error.error.status == 404)
                #expect(error.error.requestID == TestServer.requestID(json))
            }
            for target in ["/nope", "/nope.json", "/people/1/extra", "/peoples", "/index.json/1"] {
                #expect(try server.get(target).status == 404, "\(target)")
            }
            // The index has no detail routes.
            #expect(try server.get("/people.json/1").status == 404)
            // A `.json` path gets the JSON error shape without asking for it.
            for target in ["/nope.json", "/catalog/nope.json"] {
                let response = try server.get(target)
                #expect(response.status == 404)
                #expect(response.headers["Content-Type"] == "application/json")
                #expect(try ErrorJSON(parsing: response.body).error.status == 404)
            }
        }

        @Test func aTrailingSlashStillAnswersTheList() throws {
            let server = try TestServer.showcase()
            let response = try server.get("/people/")
            #expect(response.status == 200)
            #expect(response.text.hasPrefix("<!doctype html>"))
            #expect(response.body.occurrences(of: "<li class=\"cell ") == 50)
        }

        @Test func linkHeaderNamesNextAndPrevious() throws {
            let server = try TestServer.showcase()
            let first = try server.get("/people")
            #expect(first.links == ["next": "/people?offset=50&limit=50", "first": "/people?offset=0&limit=50"])
            let middle = try server.get("/people?offset=100&limit=25")
            #expect(
                middle.links == [
                    "next": "/people?offset=125&limit=25", "prev": "/people?offset=75&limit=25", "first": "/people?offset=0&limit=25",
                ])
            let last = try server.get("/people.json?offset=290&limit=25")
            #expect(last.links == ["prev": "/people.json?offset=265&limit=25", "first": "/people.json?offset=0&limit=25"])
            // The page's pager links to the same pages (parsed, so `&amp;` is read as `&`).
            let elements = try HTMLInspector.elements(middle.body)
            #expect(elements.first { $0.tag == "a" && $0.attributes["rel"] == "next" }?.attributes["href"] == middle.links["next"])
            #expect(elements.first { $0.tag == "a" && $0.attributes["rel"] == "prev" }?.attributes["href"] == middle.links["prev"])
            // Other query items are kept in the links.
            let filtered = try server.get("/catalog?q=burgundy&limit=1")
            #expect(filtered.links["next"] == "/catalog?q=burgundy&offset=1&limit=1")
        }

        @Test func healthAndStaticFiles() throws {
            let server = try TestServer.showcase()
            let health = try server.get("/healthz")
            #expect(health.status == 200)
            #expect(try health.json()["status"] == .string("ok"))
            let css = try server.get("/static/app.css")
            #expect(css.status == 200)
            #expect(css.headers["Content-Type"]?.hasPrefix("text/css") == true)
            #expect(try server.get("/static/prototypes/SubtitleCell.html").status == 200)
        }
    }
}
