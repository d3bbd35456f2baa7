import Foundation
import HTTPTestSupport
import Testing

/// Controller actions over HTTP: the catalog's search (banner, redirect, filtered rows) and the
/// reports' loading placeholder filled by its fragment.
extension CellarHTTPTests {
    @Suite struct ControllerActions {
        static let catalogSize = 25

        @Test func aSearchWithNoMatchShowsABannerOverTheWholeList() throws {
            let server = try TestServer.showcase()
            let response = try server.get("/catalog?q=zinfandel")
            #expect(response.status == 200)
            let elements = try HTMLInspector.elements(response.body)
            let alerts = elements.filter { $0.hasClass("alert") }
            #expect(alerts.count == 1)
            #expect(alerts.first?.attributes["role"] == "alert")
            #expect(alerts.first?.hasClass("alert-warning") == true)
            #expect(alerts.first?.text == "No product matches “zinfandel”. Showing the whole catalog.")
            #expect(elements.filter { $0.tag == "li" && $0.hasClass("cell") }.count == Self.catalogSize)
            #expect(elements.first { $0.tag == "input" && $0.attributes["id"] == "q" }?.attributes["value"] == "zinfandel")

            let json = try server.list("/catalog.json?q=zinfandel")
            #expect(json.alert?.style == "warning")
            #expect(json.alert?.message.contains("zinfandel") == true)
            #expect(json.rows.count == Self.catalogSize)

            // Without a search there is no banner, and the field is empty.
            let plain = try HTMLInspector.elements(try server.get("/catalog").body)
            #expect(!plain.contains { $0.hasClass("alert") })
            #expect(plain.first { $0.tag == "input" && $0.attributes["id"] == "q" }?.attributes["value"] == "")
            #expect(try server.list("/catalog.json").alert == nil)
        }

        @Test func exactlyOneMatchRedirectsToItsDetail() throws {
            let server = try TestServer.showcase()
            for (target, location) in [
                ("/catalog?q=barolo", "/catalog/barolo-riserva"), ("/catalog?q=%20Mosel%20", "/catalog/riesling-kabinett"),
                ("/catalog.json?q=ROQUEFORT", "/catalog/roquefort"), ("/catalog?q=margaux", "/catalog/ch%C3%A2teau-margaux-2015"),
            ] {
                let response = try server.get(target)
                #expect(response.status == 303, "\(target)")
                #expect(response.headers["Location"] == location)
                #expect(response.body.isEmpty)
                let detail = try server.get(location)
                #expect(detail.status == 200)
                #expect(detail.text.contains("<dl class=\"detail\">"))
            }
            // A JSON client is redirected too, and the detail answers as JSON.
            let redirect = try server.getAcceptingJSON("/catalog?q=barolo")
            #expect(redirect.status == 303)
            let detail = try DetailJSON(parsing: try server.getAcceptingJSON("/catalog/barolo-riserva").body)
            #expect(detail.title == "Barolo Riserva")
            #expect(detail.item?["region"] == .string("Piedmont"))
        }

        @Test func severalMatchesShowTheFilteredRows() throws {
            let server = try TestServer.showcase()
            let response = try server.get("/catalog?q=burgundy")
            #expect(response.status == 200)
            let elements = try HTMLInspector.elements(response.body)
            let rows = elements.filter { $0.tag == "li" && $0.hasClass("cell") }
            #expect(rows.compactMap { $0.attributes["id"] } == ["row-chablis-premier-cru", "row-%C3%A9poisses"])
            #expect(elements.first { $0.hasClass("alert") }?.text == "2 products match “burgundy”.")
            let json = try server.list("/catalog.json?q=burgundy")
            #expect(json.rows.map(\.id) == ["chablis-premier-cru", "époisses"])
            #expect(json.alert?.style == "info")
            #expect(json.meta.total == 2)
        }

        @Test func aSearchTermWithMarkupIsShownAsText() throws {
            let server = try TestServer.showcase()
            let term = "<script>alert(\"x\")</script> & 'quotes'"
            let encoded = term.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let response = try server.get("/catalog?q=" + encoded)
            #expect(response.status == 200)
            #expect(try HTMLInspector.checkMarkup([response.body]) == nil)
            let elements = try HTMLInspector.elements(response.body)
            #expect(elements.first { $0.tag == "input" && $0.attributes["id"] == "q" }?.attributes["value"] == term)
            #expect(elements.first { $0.hasClass("alert") }?.text == "No product matches “\(term)”. Showing the whole catalog.")
            #expect(!elements.contains { $0.tag == "script" && $0.attributes["src"] == nil })
            // The JSON banner holds the same text, without a raw `<`.
            let json = try server.get("/catalog.json?q=" + encoded)
            #expect(!json.body.contains(UInt8(ascii: "<")))
            #expect(try ListJSON(parsing: json.body).alert?.message.contains(term) == true)
        }

        @Test func theCatalogPageHasASearchForm() throws {
            let server = try TestServer.showcase()
            let elements = try HTMLInspector.elements(try server.get("/catalog").body)
            let form = try #require(elements.first { $0.tag == "form" })
            #expect(form.attributes["role"] == "search")
            #expect(form.attributes["action"] == "/catalog")
            #expect(form.attributes["method"] == "get")
            #expect(elements.first { $0.tag == "label" }?.attributes["for"] == "q")
            // Lists that cannot be searched have no form.
            #expect(!(try HTMLInspector.elements(try server.get("/settings").body)).contains { $0.tag == "form" })
            // Whether a controller's type is searchable is remembered, for the last type that is
            // not: lists of both kinds in turn keep their own answers.
            for path in ["/people", "/catalog", "/catalog", "/settings", "/settings", "/catalog", "/people", "/catalog"] {
                let hasForm = try HTMLInspector.elements(try server.get(path).body).contains { $0.tag == "form" && $0.attributes["role"] == "search" }
                #expect(hasForm == (path == "/catalog"), "\(path)")
            }
        }

        @Test func theReportsPageShowsALoadingPlaceholderThatItsFragmentFills() throws {
            let server = try TestServer.showcase()
            let page = try server.get("/reports")
            #expect(page.status == 200)
            let elements = try HTMLInspector.elements(page.body)
            let placeholder = try #require(elements.first { $0.hasClass("loading") })
            #expect(placeholder.attributes["aria-busy"] == "true")
            #expect(placeholder.text.contains("Counting the bottles…"))
            let source = try #require(placeholder.attributes["data-loading-src"])
            #expect(source == "/reports?offset=0&limit=50&fragment=rows")
            // Without JavaScript, a link leads to the same rows.
            #expect(page.text.contains("<noscript>"))
            #expect(!elements.contains { $0.tag == "li" && $0.hasClass("cell") })

            let fragment = try server.get(source)
            #expect(fragment.status == 200)
            #expect(!fragment.text.contains("<html"))
            let rows = try HTMLInspector.elements(fragment.body).filter { $0.tag == "li" && $0.hasClass("cell") }
            #expect(rows.count == 6)
            #expect(rows.first?.text.contains("Bottles in the cellar") == true)
            #expect(rows.allSatisfy { $0.hasClass("value") })

            // The other formats give the rows straight away.
            #expect(try server.list("/reports.json").rows.count == 6)
            #expect(try server.get("/reports", headers: [("HX-Request", "true")]).body.occurrences(of: "<li class=\"cell value\"") == 6)
        }
    }
}
