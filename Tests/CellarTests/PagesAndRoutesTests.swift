import Cellar
import HTTPTestSupport
import Showcase
import TableKit
import Testing

/// `app.page` and `app.route`, over sockets: a page is written inside the site's frame (title,
/// navigation, skip link, the app's layout) with the status its handler returns; an error thrown
/// is the site's error page, or JSON; the article's example works as it says.
@Suite struct PagesAndRoutesTests {
    /// The notes of the article, listed at `/notes`.
    struct NotesController: TableController {
        let notes: [String]
        var title: String { "Notes" }
        func numberOfRows(inSection section: Int) -> Int { notes.count }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            DataCellProvider(for: indexPath, cell: PlainTextCell.self, data: notes[indexPath.row])
        }
    }

    struct Broken: Error, CustomStringConvertible {
        var description: String { "the kettle is broken" }
    }

    static func server(development: Bool = false, layout: PageLayout? = nil) throws -> (TestServer, PagesArticle.NoteStore) {
        let store = PagesArticle.NoteStore()
        let server = try TestServer { app in
            try app.register(PlainTextCell.self)
            app.showsErrorDetails = development
            if let layout { app.layout = layout }
            app.list("/notes", title: "Notes") { _ in NotesController(notes: store.all) }
            PagesArticle.addPages(to: app, store: store)
            app.page("/kitchen/:room", title: "Kitchen") { request, page in
                let room = request.parameters["room"] ?? ""
                switch room {
                case "tea": throw HTTPError(.notFound, "No tea in the <kitchen>.")
                case "kettle": throw Broken()
                case "empty": return .noContent
                default:
                    page.title = "The \(room)"
                    page.html.element("p", text: "Welcome to the \(room) & more.")
                    return room == "full" ? HTTPStatus(code: 422) : .ok
                }
            }
        }
        return (server, store)
    }

    @Test func aPageIsWrittenInsideTheSiteFrame() throws {
        let (server, _) = try Self.server()
        let page = try server.get("/notes/new")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
        let html = page.text
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("<title>New note · Cellar</title>"))
        #expect(html.contains(##"<a class="skip-link" href="#main">Skip to content</a>"##))
        #expect(html.contains(#"<nav aria-label="Lists"><ul><li><a href="/notes">Notes</a></li></ul></nav>"#))
        #expect(html.contains(#"<main id="main" class="page-view">"# + "\n<h1>New note</h1>\n<form method=\"post\">"))
        #expect(html.contains("</form>\n"))
        #expect(html.hasSuffix("</html>\n"))
        // The handler sets the title and the status; its text is escaped.
        let kitchen = try server.get("/kitchen/full")
        #expect(kitchen.status == 422)
        #expect(kitchen.text.contains("<title>The full · Cellar</title>"))
        #expect(kitchen.text.contains("<h1>The full</h1>\n<p>Welcome to the full &amp; more.</p>"))
        let empty = try server.get("/kitchen/empty")
        #expect(empty.status == 204)
        #expect(empty.body.isEmpty)
    }

    @Test func aPageUsesTheAppsLayout() throws {
        let layout = try PageLayout(
            template: "<!doctype html><title>{{documentTitle}}</title>{{head}}{{skipLink}}<div class=\"mine\">{{header}}{{main}}</div>")
        let (server, _) = try Self.server(layout: layout)
        let html = try server.get("/notes/new").text
        #expect(html.contains("<div class=\"mine\"><header class=\"site-header\">"))
        #expect(html.contains("<h1>New note</h1>"))
    }

    @Test func anErrorThrownIsTheSitesErrorPageOrJSON() throws {
        let (server, _) = try Self.server()
        let missing = try server.get("/kitchen/tea")
        #expect(missing.status == 404)
        #expect(missing.text.contains("<h1>404 Not Found</h1>"))
        #expect(missing.text.contains("No tea in the &lt;kitchen&gt;."))
        let json = try server.getAcceptingJSON("/kitchen/tea")
        #expect(json.status == 404)
        #expect(try json.json()["error"]?["message"] == .string("No tea in the <kitchen>."))
        // Any other error: a 500 that shows nothing of it, and the log has it.
        let broken = try server.get("/kitchen/kettle")
        #expect(broken.status == 500)
        #expect(broken.text.contains("The server failed to answer this request."))
        #expect(!broken.text.contains("kettle is broken"))
        let requestID = try #require(TestServer.requestID(broken))
        let logged = try #require(server.logs.waitForEntry { $0.metadata["request_id"] == requestID && $0.level == .error })
        #expect(logged.metadata["page"] == "/kitchen/:room")
        #expect(logged.metadata["error"] == "the kettle is broken")
        let (development, _) = try Self.server(development: true)
        #expect(try development.get("/kitchen/kettle").text.contains("the kettle is broken"))
    }

    @Test func theArticlesFormAddsANoteAndRedirects() throws {
        let (server, store) = try Self.server()
        let form = [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "same-origin")]
        let added = try TestHTTPClient.send("POST", "/notes/new", port: server.port, headers: form, body: Array("text=Buy+tea%21".utf8))
        #expect(added.status == 303)
        #expect(added.headers["Location"] == "/notes")
        #expect(store.all == ["Buy tea!"])
        #expect(try server.get("/notes").text.contains("Buy tea!"))
        // Without text: the error page, with the message.
        let empty = try TestHTTPClient.send("POST", "/notes/new", port: server.port, headers: form, body: Array("text=".utf8))
        #expect(empty.status == 422)
        #expect(empty.text.contains("A note needs some text."))
        // A multipart body is not read.
        let multipart = try TestHTTPClient.send(
            "POST", "/notes/new", port: server.port, headers: [("Content-Type", "multipart/form-data; boundary=x")], body: Array("--x--".utf8))
        #expect(multipart.status == 415)
        // From another site: refused before the handler runs.
        let forged = try TestHTTPClient.send(
            "POST", "/notes/new", port: server.port,
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "cross-site")],
            body: Array("text=forged".utf8))
        #expect(forged.status == 403)
        #expect(store.all == ["Buy tea!"])
    }

    @Test func theArticlesRouteAndMiddlewareAnswer() throws {
        let (server, store) = try Self.server()
        store.add("one")
        let count = try server.get("/notes/count")
        #expect(count.status == 200)
        #expect(try count.json() == .object(["count": .integer(1)]))
        #expect(count.headers["Server-Timing"]?.hasPrefix("app;dur=") == true)
        #expect(try server.get("/notes").headers["Server-Timing"] != nil)
        #expect(try server.getAcceptingJSON("/notes/count?format=xml").status == 406)
    }
}
