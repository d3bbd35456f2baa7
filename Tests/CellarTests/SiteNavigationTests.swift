import Cellar
import Testing

/// The brand and the error pages' way back lead to a page the app serves: its index, else its
/// first list, else nowhere (no link rather than a 404).
@Suite struct SiteNavigationTests {
    /// Every link on `target`'s page that leads to a path on the site, with its text.
    static func links(_ server: TestServer, _ target: String) throws -> [(text: String, href: String)] {
        try HTMLInspector.elements(try server.get(target).body).compactMap { element in
            guard element.tag == "a", let href = element.attributes["href"], href.hasPrefix("/") else { return nil }
            return (element.text, href)
        }
    }

    static func mountLines(_ app: App) throws {
        try app.register(PlainTextCell.self)
        app.list("/lines", title: "Lines") { _ in ChangingController(version: 1) }
        app.list("/more-lines", title: "More lines") { _ in ChangingController(version: 2) }
    }

    @Test func withoutAnIndexTheyLeadToTheFirstList() throws {
        let server = try TestServer { app in try Self.mountLines(app) }
        let page = try server.get("/lines").text
        #expect(page.contains("<a class=\"brand\" href=\"/lines\">Cellar</a>"))
        #expect(!page.contains("href=\"/\""))
        let error = try server.get("/no-such-page")
        #expect(error.status == 404)
        #expect(error.text.contains("<p><a href=\"/lines\">Lines</a></p>"))
        #expect(!error.text.contains("href=\"/\""))
        for target in ["/lines", "/more-lines", "/no-such-page", "/lines/0"] {
            for link in try Self.links(server, target) {
                #expect(try server.get(link.href).status == 200, "\(target): \(link.text) → \(link.href)")
            }
        }
    }

    @Test func withAnIndexTheyLeadToIt() throws {
        let server = try TestServer { app in
            try Self.mountLines(app)
            app.indexList(at: "/lists")
        }
        #expect(try server.get("/lines").text.contains("<a class=\"brand\" href=\"/lists\">Cellar</a>"))
        let error = try server.get("/no-such-page").text
        #expect(error.contains("<p><a href=\"/lists\">All lists</a></p>"))
        #expect(try server.get("/lists").status == 200)
    }

    @Test func withNoListsThereIsNoLink() throws {
        let server = try TestServer { _ in }
        let error = try server.get("/no-such-page")
        #expect(error.status == 404)
        #expect(error.text.contains("<span class=\"brand\">Cellar</span>"))
        #expect(!error.text.contains("class=\"brand\" href"))
        #expect(!error.text.contains("All lists"))
    }

    @Test func theShowcaseKeepsItsLinksToTheIndex() throws {
        let server = try TestServer.showcase()
        #expect(try server.get("/people").text.contains("<a class=\"brand\" href=\"/\">Cellar</a>"))
        #expect(try server.get("/no-such-page").text.contains("<p><a href=\"/\">All lists</a></p>"))
    }
}
