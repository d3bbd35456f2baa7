import ByteWriters
import MicroHTTP

/// What a page handler (``App/page(_:title:_:handler:)``) writes: its `<main>`'s content, its title,
/// and its answer's headers. The site's frame goes around it — the document's title, the site
/// header with its navigation, the skip link, the app's `layout.html` — and the title is the
/// page's `<h1>`.
///
/// ```swift
/// app.page("/about", title: "About") { request, page in
///     page.html.element("p", text: "Recipes from our kitchen.")
///     return .ok
/// }
/// ```
///
/// A value that cannot be copied: it owns its writer.
public struct PageContent: ~Copyable {
    /// The page's title: its `<h1>` and, with the site's name, its document title.
    public var title: String
    /// The content of `<main>` after the `<h1>`: text written with it is escaped, as a cell's is.
    public var html: HTMLWriter
    /// Headers of the answer (`Content-Type` is `text/html; charset=utf-8` unless set here).
    public var headers: HTTPHeaders
    /// The class of `<main>`, which the stylesheet keys on: `page-view`, and `form-view` too for a
    /// page of field cells (the sign-in page's).
    var mainClass: StaticString = "page-view"
    /// The document's `<title>` when it is not ``title`` (the sign-in page's "Error: Sign in" after a
    /// failure, what a screen reader says first of the page).
    var documentTitle: String?

    init(title: String) {
        self.title = title
        html = HTMLWriter(capacity: 2048)
        headers = HTTPHeaders()
    }

    /// Answers with a redirect to `location` instead of the page (303: after a POST, the browser
    /// asks for `location` with a GET, and a reload does not post again). Return what it returns.
    public mutating func redirect(to location: String) -> HTTPStatus {
        headers.replaceOrAdd(name: "Location", value: location)
        return .seeOther
    }
}
