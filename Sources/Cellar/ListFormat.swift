import MicroHTTP
import TableKit

/// One way a list answers: the page, the rows fragment, JSON, CSV.
///
/// Every list answers in each of ``registered``: the router mounts each format that has a
/// ``pathExtension`` at the list's path with it (`/people.json`, `/people.csv`), a request picks
/// one by that path and its `Accept` (``negotiate(_:path:)``), and the validators, the start-up
/// check and live watching read the format it picked. A new format is one file that makes a
/// `ListFormat` and its entry in ``registered``.
///
/// A class: each format is one object made once, which a request reads and passes on without
/// copying its strings and closures (a struct's copy retained each of them), and compares by
/// identity.
public final class ListFormat: Sendable {
    /// How a format writes a list.
    enum Answer: Sendable {
        /// The window a request asks for (offset, limit or cursor), in a ``ListBody``: one buffer
        /// with an `ETag` when small, a stream when large.
        case window(@Sendable (ListBodyParts) -> any ListBody)
        /// The whole list the request's query selects, its paging items dropped: the responder
        /// returns the response itself (a stream in bounded memory).
        case wholeList(@Sendable (ListResponder, Request, ListRoute) throws -> Response)
    }

    /// The format's name (`page`, `json`): what its validators are derived from.
    public let name: String
    /// What a link to it reads (`JSON`).
    public let label: String
    /// What the list's path ends with to ask for it (`.json`), or nil when the path does not name it.
    public let pathExtension: String?
    /// The response's `Content-Type`.
    public let contentType: String
    /// ``contentType`` without its parameters (`text/csv`): a link's `type`.
    public let mediaType: String
    /// Whether a request to the list's own path asks for this format by its headers (`Accept`).
    let isAccepted: @Sendable (Request) -> Bool
    let answer: Answer

    init(
        name: String, label: String, pathExtension: String?, contentType: String, isAccepted: @escaping @Sendable (Request) -> Bool = { _ in false },
        answer: Answer
    ) {
        self.name = name
        self.label = label
        self.pathExtension = pathExtension
        self.contentType = contentType
        mediaType = String(contentType.prefix { $0 != ";" })
        self.isAccepted = isAccepted
        self.answer = answer
    }

    /// Whether the format writes the whole list, whatever the request's page (CSV).
    var writesWholeList: Bool {
        if case .wholeList = answer { return true }
        return false
    }

    /// The formats every list answers in, in the order `Accept` is checked for them.
    static let registered: [ListFormat] = [.page, .fragment, .json, .csv]

    /// The formats a list's path names with an extension: each its own route.
    static let named: [ListFormat] = registered.filter { $0.pathExtension != nil }

    /// The format a request asks for: the one its path names (`.json`, `.csv`); on the list's own
    /// path, the first registered format its `Accept` asks for (JSON for `Accept:
    /// application/json`), else the rows fragment for `?fragment=rows` or `HX-Request: true`, else
    /// the page.
    static func negotiate(_ request: Request, path: ListFormat) throws(HTTPError) -> ListFormat {
        guard path == .page else { return path }
        var fragment = false
        if let value = request.query["fragment"] {
            guard value == "rows" else {
                throw HTTPError.badRequest("fragment must be “rows” (got “\(value.prefix(40))”).")
            }
            fragment = true
        }
        // Most requests send no `Accept` a format checks: then no format is asked.
        if request.headers["Accept"] != nil, let accepted = registered.first(where: { $0.isAccepted(request) }) { return accepted }
        if fragment || request.headers["HX-Request"]?.lowercased() == "true" { return .fragment }
        return .page
    }

    /// Whether a request that lists `mediaType` in its `Accept` before `text/html` asks for it.
    static func accepts(_ request: Request, mediaType: String) -> Bool {
        guard let accept = request.headers["Accept"] else { return false }
        for range in accept.split(separator: ",") {
            let listed = range.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces().lowercased() } ?? ""
            if listed == "text/html" { return false }
            if listed == mediaType { return true }
        }
        return false
    }

    /// Query items a link to another format of the same rows leaves out: the page's place and the
    /// fragment (a format link names the rows, not a page of them).
    public static func isPlaceItem(_ name: String) -> Bool {
        name == "offset" || name == "cursor" || name == "fragment"
    }
}

extension ListFormat: Equatable {
    /// The same format: the same object, as each is made once (``registered``).
    public static func == (lhs: ListFormat, rhs: ListFormat) -> Bool { lhs === rhs }
}

extension ListFormat {
    /// The HTML document: layout, title, sections, pager.
    static let page = ListFormat(
        name: "page", label: "Page", pathExtension: nil, contentType: "text/html; charset=utf-8", answer: .window(HTMLListBody.init))

    /// Only the sections and the pager, to append to a page ("load more", infinite scroll).
    static let fragment = ListFormat(
        name: "fragment", label: "Rows", pathExtension: nil, contentType: "text/html; charset=utf-8", answer: .window(HTMLListBody.init))

    /// The same rows as JSON (see ``JSONListBody``).
    static let json = ListFormat(
        name: "json", label: "JSON", pathExtension: ".json", contentType: "application/json", isAccepted: { $0.prefersJSON },
        answer: .window(JSONListBody.init))
}

/// What a ``ListBody`` is made from: the request's window of a list and where it is written.
struct ListBodyParts {
    let format: ListFormat
    let route: ListRoute
    let controller: any TableController
    let layout: TableLayout
    let page: Page
    let links: PageLinks
    let registry: ReuseRegistry
    let site: SiteLayout
    /// Who the page is for (nil: no one signed in).
    let actor: String?
    /// The request's query, when the list offers its actor editing mode (an "Edit" button).
    let editQuery: QueryItems?
    let rowErrors: RowErrorReporter?
    /// The request's query.
    let query: QueryItems
}

extension ListRoute {
    /// The path that asks for `format`: the list's own, or it with the format's extension
    /// (`/people.json`; the index at `/` → `/index.json`).
    func path(for format: ListFormat) -> String {
        guard let pathExtension = format.pathExtension else { return path }
        return path == "/" ? "/index" + pathExtension : path + pathExtension
    }

    /// ``path(for:)`` as links write it.
    func href(for format: ListFormat) -> String {
        guard let pathExtension = format.pathExtension else { return href }
        return path == "/" ? "/index" + pathExtension : href + pathExtension
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
