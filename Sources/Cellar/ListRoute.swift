import ByteWriters
import MicroHTTP
import TableKit

/// A list whose route cannot answer as mounted.
enum ListRouteError: Error, CustomStringConvertible {
    case notAFetchedPageController(String, type: String)

    var description: String {
        switch self {
        case .notAFetchedPageController(let path, let type):
            "The list at \(path) is paged by keyset, but its controller (\(type)) is not a FetchedPageController"
        }
    }
}

/// A list mounted on a path: how to make its controller, how it pages, how it is introduced.
public struct ListRoute: Sendable {
    public typealias ControllerFactory = @Sendable (ListContext) throws -> any TableController

    /// The path (`/people`); each format with an extension at ``path(for:)`` (`path.json`, `path.csv`), details at `path/:id`.
    /// Routes match it as decoded (`/my list`); links use ``href``.
    public let path: String
    /// The path as links write it: each segment percent-encoded where it needs to be (`/my%20list`).
    public let href: String
    /// The list's one title: in navigation, the index of lists, the page's `<title>` and `<h1>`,
    /// the JSON's `title` and the details' back link. Given when the list is mounted, or else
    /// its controller's ``TableController/title`` (read by ``App/validate()``), or else made
    /// from the path.
    public internal(set) var title: String
    /// Whether ``title`` was given when the list was mounted.
    public let hasTitleOfItsOwn: Bool
    /// A line about the list for the index.
    public let summary: String
    public let paging: ListPaging
    /// Whether the page loads further rows as the pager scrolls into view (with JavaScript).
    public let infiniteScroll: Bool
    /// Whether rows link to a detail route at `path/:id`.
    public let hasDetail: Bool
    /// Whether the list (and its JSON twin) also answers a POST of a form
    /// (`application/x-www-form-urlencoded`), as the GET whose query holds the URL's items and
    /// then the form's: for a value too long for a URL, such as an SQL statement.
    public let acceptsFormPosts: Bool
    let makeController: ControllerFactory
    /// How `path/:id` answers when the list was mounted with a `detail:` closure; nil: its
    /// controller's ``TableController/detail(forRowAt:)``.
    var detail: ListRouteDetail?
    /// For a row's detail list (`/recipes/3`), the list it was selected from; nil for a mounted list.
    var parent: ParentList?
    /// The path without its `/` (`people`), the page's `data-list`: made once, not per page.
    let listName: String

    public init(
        path: String, title: String?, summary: String = "", paging: ListPaging = .paged, infiniteScroll: Bool = false,
        hasDetail: Bool = true, acceptsFormPosts: Bool = false, makeController: @escaping ControllerFactory
    ) {
        self.hasDetail = hasDetail
        self.acceptsFormPosts = acceptsFormPosts
        self.path = path
        href = Self.percentEncodedPath(path)
        self.title = title ?? Self.defaultTitle(for: path)
        hasTitleOfItsOwn = title != nil
        self.summary = summary
        self.paging = paging
        self.infiniteScroll = infiniteScroll
        self.makeController = makeController
        listName = String(path.dropFirst())
    }

    /// `path` with every byte of each segment but the unreserved ones and the sub-delimiters a
    /// path may hold percent-encoded: `/people` stays as it is, `/my list` becomes `/my%20list`.
    public static func percentEncodedPath(_ path: String) -> String {
        // `/` between segments, and the sub-delimiters, `:` and `@` a segment may hold (RFC 3986 `pchar`).
        let kept = Set("/!$&'()*+,;=:@".utf8)
        return PercentEncoding.encoded(path) { PercentEncoding.isUnreserved($0) || kept.contains($0) }
    }

    /// `/people` → "People".
    static func defaultTitle(for path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? "Lists"
        return last.prefix(1).uppercased() + last.dropFirst()
    }
}
