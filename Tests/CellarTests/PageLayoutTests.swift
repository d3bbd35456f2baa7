import Foundation
import Showcase
import TableKit
import Testing

@testable import Cellar

/// A layout of the app's own: its slots filled and escaped on every kind of page, the default
/// frame unchanged, and a broken template reported with its line and column.
@Suite struct PageLayoutTests {
    static let template = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>{{ title }} | {{siteName}}</title>
        {{head}}
        </head>
        <body>
        {{skipLink}}
        <div class="frame"><header class="mine"><a href="/lines">Home of {{siteName}}</a>{{navigation}}</header>
        {{main}}
        <aside>You are reading {{title}}.</aside>
        </div>
        </body>
        </html>

        """

    static func server(layout: String = template) throws -> TestServer {
        try TestServer { app in
            app.siteName = "Tom & Jerry's <Cellar>"
            app.layout = try PageLayout(template: layout)
            try app.register(PlainTextCell.self)
            app.list("/lines", title: "Lines <b>bold</b>") { _ in FramedController(title: "Lines <b>bold</b>") }
            app.list("/more-lines", title: "More lines") { _ in FramedController(title: "More lines") }
        }
    }

    @Test func theSlotsAreFilledAndEscaped() throws {
        let server = try Self.server()
        let page = try server.get("/lines").text
        #expect(page.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"))
        #expect(page.contains("<title>Lines &lt;b&gt;bold&lt;/b&gt; | Tom &amp; Jerry&#39;s &lt;Cellar&gt;</title>\n"))
        #expect(page.contains("<link rel=\"stylesheet\" href=\"/static/app.css\">\n<link rel=\"icon\""))
        #expect(page.contains("<script src=\"/static/app.js\" defer></script>\n</head>"))
        #expect(page.contains("<a class=\"skip-link\" href=\"#main\">Skip to content</a>\n<div class=\"frame\">"))
        #expect(page.contains("<a href=\"/lines\">Home of Tom &amp; Jerry&#39;s &lt;Cellar&gt;</a><nav aria-label=\"Lists\"><ul>"))
        #expect(page.contains("<li><a href=\"/lines\" aria-current=\"page\">Lines &lt;b&gt;bold&lt;/b&gt;</a></li>"))
        #expect(page.contains("</header>\n<main id=\"main\" class=\"table-view\" data-list=\"lines\">\n<h1>"))
        #expect(page.contains("aria-live=\"polite\"></p>\n</main>\n<aside>You are reading Lines &lt;b&gt;bold&lt;/b&gt;.</aside>\n</div>"))
        #expect(page.hasSuffix("</body>\n</html>\n"))
        #expect(!page.contains("site-header") && !page.contains("site-footer") && !page.contains("{{"))
        #expect(Array(page.utf8).occurrences(of: "<main") == 1 && Array(page.utf8).occurrences(of: "</main>") == 1)

        let other = try server.get("/more-lines").text
        #expect(other.contains("<li><a href=\"/more-lines\" aria-current=\"page\">More lines</a></li>"))
        #expect(other.contains("<aside>You are reading More lines.</aside>"))

        let detail = try server.get("/lines/0").text
        #expect(detail.contains("<main id=\"main\" class=\"detail-view\">"))
        #expect(detail.contains("<li><a href=\"/lines\" aria-current=\"page\">"))
        #expect(detail.contains("<aside>You are reading Row 0.</aside>"))

        let error = try server.get("/no-such-page")
        #expect(error.status == 404)
        #expect(error.text.contains("<title>404 Not Found | Tom &amp; Jerry&#39;s"))
        #expect(error.text.contains("<main id=\"main\" class=\"error-page\">"))
        #expect(error.text.contains("<aside>You are reading 404 Not Found.</aside>"))
        #expect(!error.text.contains("aria-current"))
        // The page is well-formed HTML to a parser.
        let elements = try HTMLInspector.elements(try server.get("/lines").body)
        #expect(elements.filter { $0.tag == "main" }.count == 1)
        #expect(elements.first { $0.tag == "title" }?.text == "Lines <b>bold</b> | Tom & Jerry's <Cellar>")
    }

    @Test func aLayoutWithOnlyMainFramesNothingElse() throws {
        let page = try Self.server(layout: "{{main}}").get("/lines").text
        #expect(page.hasPrefix("<main id=\"main\" class=\"table-view\" data-list=\"lines\">\n<h1>"))
        #expect(page.hasSuffix("aria-live=\"polite\"></p>\n</main>"))
    }

    @Test func theDefaultFrameIsUnchanged() throws {
        #expect(try PageLayout(template: PageLayout.defaultTemplate).pieces == PageLayout.standard.pieces)
        let page = try TestServer.showcase().get("/settings").text
        let head =
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Settings · Cellar</title>\n<link rel=\"stylesheet\" href=\"/static/app.css\">\n<link rel=\"icon\" href=\"/static/favicon.svg\" type=\"image/svg+xml\">\n<script src=\"/static/app.js\" defer></script>\n</head>\n<body>\n<a class=\"skip-link\" href=\"#main\">Skip to content</a>\n<header class=\"site-header\"><a class=\"brand\" href=\"/\">Cellar</a><nav aria-label=\"Lists\"><ul><li><a href=\"/\">Lists</a></li><li><a href=\"/people\">People</a></li><li><a href=\"/settings\" aria-current=\"page\">Settings</a></li>"
        let tail =
            "<p id=\"live\" class=\"visually-hidden\" role=\"status\" aria-live=\"polite\"></p>\n</main>\n<footer class=\"site-footer\"><p>Rendered by Cellar with recycled cells.</p></footer>\n</body>\n</html>\n"
        #expect(page.hasPrefix(head))
        #expect(page.contains("</ul></nav></header>\n<main id=\"main\" class=\"table-view\" data-list=\"settings\">\n<h1>Settings</h1>"))
        #expect(page.hasSuffix(tail))
    }

    @Test func theFooterLinksHealthAndMetricsInDevelopmentOnly() throws {
        let links = "<a href=\"/healthz\">Health</a> · <a href=\"/metrics\">Metrics</a>"
        for target in ["/settings", "/settings/1", "/nowhere"] {
            #expect(!(try TestServer.showcase(people: 10, listbench: 10, big: 10).get(target).text.contains(links)), "\(target)")
        }
        let development = try TestServer { app in
            app.showsErrorDetails = true
            try Showcase.install(in: app, peopleCount: 10, listbenchCount: 10, bigCount: 10)
        }
        for target in ["/settings", "/settings/1", "/nowhere"] {
            #expect(
                try development.get(target).text.contains(
                    "<footer class=\"site-footer\"><p>Rendered by Cellar with recycled cells. \(links)</p></footer>"), "\(target)")
        }
    }

    @Test(arguments: [
        ("<html>{{main}}\n<p>{{titel}}</p>", 2, 4, "unknown slot {{titel}}"),
        ("<html>\n<body>\n</body>", 3, 8, "no {{main}}"),
        ("{{main}}\n  {{main}}", 2, 3, "a second {{main}}"),
        ("{{main}}\n<b>{{{title}}}</b>", 2, 4, "malformed tag {{{title}}"),
        ("{{main}}{{#title}}", 1, 9, "malformed tag {{#title}}"),
        ("{{main}}{{}}", 1, 9, "malformed tag {{}}"),
        ("{{main}}\n<p>é {{title\n}}</p>", 2, 6, "'{{' is not closed by '}}' on its line"),
        ("{{main}}\n<p>{{title", 2, 4, "'{{' is not closed by '}}'"),
    ])
    func aBrokenTemplateNamesItsLineAndColumn(template: String, line: Int, column: Int, message: String) {
        do {
            _ = try PageLayout(template: template, file: "Public/layout.html")
            Issue.record("\(template) parsed")
        } catch {
            guard case .invalid(let file, let gotLine, let gotColumn, let gotMessage) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(file == "Public/layout.html")
            #expect(gotLine == line && gotColumn == column, "\(error)")
            #expect(gotMessage.hasPrefix(message), "\(gotMessage)")
            #expect(error.description.hasPrefix("The layout Public/layout.html, line \(line), column \(column): "))
        }
    }

    @Test func loadLayoutReadsTheFileInThePublicFolder() throws {
        let folder = try SiteAssetsTests.TemporaryFolder()
        let app = App(publicDirectory: folder.path)
        #expect(try app.loadLayout() == false)
        try folder.write("layout.html", "<body>{{header}}\n{{main}}</body>\n")
        #expect(try app.loadLayout() == true)
        try folder.write("layout.html", "<body>\n{{header}}\n{{mian}}</body>\n")
        do {
            try app.loadLayout()
            Issue.record("a broken layout.html loaded")
        } catch {
            #expect(error == .invalid(file: folder.path + "/layout.html", line: 3, column: 1, message: error.message))
            #expect(error.description.contains("layout.html, line 3, column 1: unknown slot {{mian}}"))
        }
        try Data([0x7B, 0x7B, 0xFF]).write(to: URL(fileURLWithPath: folder.path + "/layout.html"))
        #expect(throws: PageLayoutError.unreadable(file: folder.path + "/layout.html", reason: "the file is not UTF-8")) { try app.loadLayout() }
    }

    @Test func theLayoutFromTheFileFramesThePages() throws {
        let folder = try SiteAssetsTests.TemporaryFolder()
        try folder.write("layout.html", "<!doctype html>\n<title>{{title}}</title>\n{{main}}\n<footer>mine</footer>\n")
        let server = try TestServer(publicDirectory: folder.path) { app in
            try app.loadLayout()
            try app.register(PlainTextCell.self)
            app.list("/lines") { _ in ChangingController(version: 1) }
        }
        let page = try server.get("/lines").text
        #expect(page.hasPrefix("<!doctype html>\n<title>Lines</title>\n<main id=\"main\""))
        #expect(page.hasSuffix("</main>\n<footer>mine</footer>\n"))
    }
}

/// Rows with a title and details of their own.
struct FramedController: TableController {
    let title: String
    func numberOfRows(inSection section: Int) -> Int { 2 }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(for: indexPath, cell: PlainTextCell.self, data: "row \(indexPath.row)")
    }
    func detail(forRowAt indexPath: IndexPath) -> RowDetail? { RowDetail(title: "Row \(indexPath.row)", fields: [.init("Row", "\(indexPath.row)")]) }
}

extension PageLayoutError {
    /// The message of an invalid template.
    var message: String {
        if case .invalid(_, _, _, let message) = self { return message }
        return ""
    }
}
