import TableKit

/// The frame around every page — document head, site header with navigation, footer — made from
/// a ``PageLayout`` and what its slots hold for this site.
public struct SiteLayout: Sendable {
    public var siteName: String { didSet { render() } }
    /// Links in the site header: (title, path).
    public var navigation: [(title: String, path: String)] { didSet { render() } }
    /// Where the brand in the site header and the error pages' way back lead, and the text of
    /// the latter: ``App`` makes it the index when it mounts one, else the first list. Nil: the
    /// brand is no link and error pages have no way back, rather than a link to a page that is
    /// not there.
    public var home: (label: String, path: String)? { didSet { render() } }
    /// The template of the frame.
    public var layout: PageLayout { didSet { render() } }
    /// Whether the footer links to `/healthz` and `/metrics`: for whoever develops the app
    /// (``App/showsErrorDetails``, `--development`), not for its visitors.
    public var linksStatusPages: Bool { didSet { render() } }
    /// The account a page is written for: the header then says who is signed in, with a
    /// sign-out button. Set per request (``signedIn(as:)``), never on the app's own layout.
    public var signedInActor: String?
    /// Whether a page for no one signed in links to `/-/signin` (the app signs people in).
    public var offersSignIn = false

    /// A part of the frame: bytes the same on every page, or a slot filled for each page.
    private enum Piece: Sendable {
        case bytes([UInt8])
        case title
        case documentTitle
        case header
        case navigation
    }

    /// The site header and the navigation as they are on one page.
    private struct Chrome: Sendable {
        var header: [UInt8] = []
        var navigation: [UInt8] = []
    }

    // Every slot but the title depends only on the site and the current page: the layout is
    // rendered once into bytes and the few slots left, and the header and navigation once for
    // each page of the navigation and once for any other page, instead of escaping every link
    // for every request.
    private var beforeMain: [Piece] = []
    private var afterMain: [Piece] = []
    private var chromes: [String: Chrome] = [:]
    private var otherPageChrome = Chrome()
    /// The error pages' way back (`<p><a href=…>All lists</a></p>`), or nothing.
    private(set) var homeParagraph: [UInt8] = []

    public init(
        siteName: String = "Cellar", navigation: [(title: String, path: String)] = [], home: (label: String, path: String)? = nil,
        layout: PageLayout = .standard, linksStatusPages: Bool = false
    ) {
        self.siteName = siteName
        self.navigation = navigation
        self.home = home
        self.layout = layout
        self.linksStatusPages = linksStatusPages
        render()
    }

    private mutating func render() {
        chromes = [:]
        for link in navigation where chromes[link.path] == nil {
            chromes[link.path] = chrome(currentPath: link.path)
        }
        otherPageChrome = chrome(currentPath: nil)

        var html = HTMLWriter()
        if let home {
            html.raw("<p><a")
            html.attribute("href", home.path)
            html.raw(">")
            html.text(home.label)
            html.raw("</a></p>\n")
        }
        homeParagraph = html.takeBytes()

        beforeMain = []
        afterMain = []
        var isAfterMain = false
        for piece in layout.pieces {
            let filled: Piece
            switch piece {
            case .text(let text): filled = .bytes(Array(text.utf8))
            case .slot(.main):
                isAfterMain = true
                continue
            case .slot(.title): filled = .title
            case .slot(.documentTitle): filled = .documentTitle
            case .slot(.header): filled = .header
            case .slot(.navigation): filled = .navigation
            case .slot(.siteName):
                html.text(siteName)
                filled = .bytes(html.takeBytes())
            case .slot(.head):
                html.raw(
                    "<link rel=\"stylesheet\" href=\"/static/app.css\">\n<link rel=\"icon\" href=\"/static/favicon.svg\" type=\"image/svg+xml\">\n<script src=\"/static/app.js\" defer></script>"
                )
                filled = .bytes(html.takeBytes())
            case .slot(.skipLink):
                html.raw("<a class=\"skip-link\" href=\"#main\">Skip to content</a>")
                filled = .bytes(html.takeBytes())
            case .slot(.footer):
                html.raw("<footer class=\"site-footer\"><p>Rendered by ")
                html.text(siteName)
                html.raw(" with recycled cells.")
                if linksStatusPages { html.raw(" <a href=\"/healthz\">Health</a> · <a href=\"/metrics\">Metrics</a>") }
                html.raw("</p></footer>")
                filled = .bytes(html.takeBytes())
            }
            if isAfterMain { Self.append(filled, to: &afterMain) } else { Self.append(filled, to: &beforeMain) }
        }
    }

    /// Appends `piece`, joining bytes to bytes before them.
    private static func append(_ piece: Piece, to pieces: inout [Piece]) {
        if case .bytes(let bytes) = piece, case .bytes(let previous) = pieces.last {
            pieces[pieces.count - 1] = .bytes(previous + bytes)
        } else {
            pieces.append(piece)
        }
    }

    private func chrome(currentPath: String?) -> Chrome {
        var html = HTMLWriter()
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
        let navigation = html.takeBytes()
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
        html.unsafeRaw(bytes: navigation)
        html.raw("</header>")
        return Chrome(header: html.takeBytes(), navigation: navigation)
    }

    private func write(_ pieces: [Piece], title: String, currentPath: String, into html: inout HTMLWriter) {
        for piece in pieces {
            switch piece {
            case .bytes(let bytes): html.unsafeRaw(bytes: bytes)
            case .title: html.text(title)
            case .documentTitle:
                // "Books · Bookshelf", but not "Bookshelf · Bookshelf" for a list named like its site.
                html.text(title)
                if title != siteName {
                    html.raw(" · ")
                    html.text(siteName)
                }
            case .header: html.unsafeRaw(bytes: (chromes[currentPath] ?? otherPageChrome).header)
            case .navigation: html.unsafeRaw(bytes: (chromes[currentPath] ?? otherPageChrome).navigation)
            }
        }
    }

    /// Writes the frame up to `{{main}}`, then `<main …>`; `actor`, when given, is who is signed
    /// in (the page need not copy the whole layout to say so, ``signedIn(as:)``).
    func writeHead(
        title: String, currentPath: String, into html: inout HTMLWriter, mainClass: StaticString = "table-view",
        listName: String? = nil, infiniteScroll: Bool = false, actor: String? = nil
    ) {
        write(beforeMain, title: title, currentPath: currentPath, into: &html)
        if let signedInActor = actor ?? signedInActor {
            writeSession(signedInActor, into: &html)
        } else if offersSignIn, currentPath != SignInPage.path {
            // Everywhere but on the sign-in page itself; a landmark of its own, as everything on
            // the page is in one (it comes after the layout's header).
            html.raw("<nav class=\"session\" aria-label=\"Account\"><a href=\"/-/signin\">Sign in</a></nav>\n")
        }
        html.raw("<main id=\"main\" class=\"")
        html.raw(mainClass)
        html.raw("\"")
        if let listName { html.attribute("data-list", listName) }
        if infiniteScroll { html.raw(" data-infinite-scroll") }
        html.raw(">\n")
    }

    /// This layout for a page `actor` sees (itself when no one is signed in).
    func signedIn(as actor: String?) -> SiteLayout {
        guard let actor else { return self }
        var copy = self
        copy.signedInActor = actor
        return copy
    }

    /// Who is signed in, and the button that signs out: the only control sign-in adds to a page.
    private func writeSession(_ actor: String, into html: inout HTMLWriter) {
        // Named, the form is a landmark: nothing on the page is outside one.
        html.raw("<form class=\"session\" aria-label=\"Account\" method=\"post\" action=\"/-/signout\"><span>Signed in as <strong>")
        html.text(actor)
        html.raw("</strong></span> <button type=\"submit\">Sign out</button></form>\n")
    }

    /// Writes the live region, `</main>`, then the rest of the frame.
    func writeTail(title: String, currentPath: String, into html: inout HTMLWriter) {
        html.raw("<p id=\"live\" class=\"visually-hidden\" role=\"status\" aria-live=\"polite\"></p>\n</main>")
        write(afterMain, title: title, currentPath: currentPath, into: &html)
    }
}
