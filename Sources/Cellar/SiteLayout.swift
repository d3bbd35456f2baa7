import TableKit

/// The frame around every page: document head, site header with navigation, footer.
public struct SiteLayout: Sendable {
    public var siteName: String { didSet { renderSiteHeaders() } }
    /// Links in the site header: (title, path).
    public var navigation: [(title: String, path: String)] { didSet { renderSiteHeaders() } }
    /// Where the brand in the site header and the error pages' way back lead, and the text of
    /// the latter: ``App`` makes it the index when it mounts one, else the first list. Nil: the
    /// brand is no link and error pages have no way back, rather than a link to a page that is
    /// not there.
    public var home: (label: String, path: String)? { didSet { renderSiteHeaders() } }
    // The site header (`<header …>…</header>`) depends only on the name, the navigation and the
    // current page: rendered once for each page of the navigation and once for any other page,
    // instead of escaping every link for every request.
    private var siteHeaders: [String: [UInt8]] = [:]
    private var otherPageSiteHeader: [UInt8] = []
    /// The error pages' way back (`<p><a href=…>All lists</a></p>`), or nothing.
    private(set) var homeParagraph: [UInt8] = []

    public init(siteName: String = "Cellar", navigation: [(title: String, path: String)] = [], home: (label: String, path: String)? = nil) {
        self.siteName = siteName
        self.navigation = navigation
        self.home = home
        renderSiteHeaders()
    }

    private mutating func renderSiteHeaders() {
        siteHeaders = [:]
        for link in navigation where siteHeaders[link.path] == nil {
            siteHeaders[link.path] = siteHeader(currentPath: link.path)
        }
        otherPageSiteHeader = siteHeader(currentPath: nil)
        var html = HTMLWriter()
        if let home {
            html.raw("<p><a")
            html.attribute("href", home.path)
            html.raw(">")
            html.text(home.label)
            html.raw("</a></p>\n")
        }
        homeParagraph = html.takeBytes()
    }

    private func siteHeader(currentPath: String?) -> [UInt8] {
        var html = HTMLWriter()
        if let home {
            html.raw("<header class=\"site-header\"><a class=\"brand\"")
            html.attribute("href", home.path)
            html.raw(">")
            html.text(siteName)
            html.raw("</a>")
        } else {
            html.raw("<header class=\"site-header\"><span class=\"brand\">")
            html.text(siteName)
            html.raw("</span>")
        }
        if !navigation.isEmpty {
            html.raw("<nav aria-label=\"Lists\"><ul>")
            for link in navigation {
                html.raw("<li><a")
                html.attribute("href", link.path)
                if link.path == currentPath { html.raw(" aria-current=\"page\"") }
                html.raw(">")
                html.text(link.title)
                html.raw("</a></li>")
            }
            html.raw("</ul></nav>")
        }
        html.raw("</header>")
        return html.takeBytes()
    }

    /// Writes everything up to and including `<main …>`.
    func writeHead(
        title: String, currentPath: String, into html: inout HTMLWriter, mainClass: StaticString = "table-view",
        listName: String? = nil, infiniteScroll: Bool = false
    ) {
        html.raw(
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
        )
        html.text(title)
        html.raw(" · ")
        html.text(siteName)
        html.raw(
            "</title>\n<link rel=\"stylesheet\" href=\"/static/app.css\">\n<link rel=\"icon\" href=\"/static/favicon.svg\" type=\"image/svg+xml\">\n<script src=\"/static/app.js\" defer></script>\n</head>\n<body>\n<a class=\"skip-link\" href=\"#main\">Skip to content</a>\n"
        )
        html.unsafeRaw(bytes: siteHeaders[currentPath] ?? otherPageSiteHeader)
        html.raw("\n<main id=\"main\" class=\"")
        html.raw(mainClass)
        html.raw("\"")
        if let listName { html.attribute("data-list", listName) }
        if infiniteScroll { html.raw(" data-infinite-scroll") }
        html.raw(">\n")
    }

    /// Writes the live region, `</main>`, the footer and the end of the document.
    func writeTail(into html: inout HTMLWriter) {
        html.raw(
            "<p id=\"live\" class=\"visually-hidden\" role=\"status\" aria-live=\"polite\"></p>\n</main>\n<footer class=\"site-footer\"><p>Rendered by "
        )
        html.text(siteName)
        html.raw(" with recycled cells. <a href=\"/healthz\">Health</a> · <a href=\"/metrics\">Metrics</a></p></footer>\n</body>\n</html>\n")
    }
}
