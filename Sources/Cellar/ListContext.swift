import MicroHTTP
import TableKit

/// What a controller is made with: the request it answers, the list it belongs to, and what the
/// request asks of the list — which rows, in what order, filtered how, or which single row.
///
/// A controller over a store can fetch just the page asked for:
///
/// ```swift
/// app.list("/books", title: "Books") { context in
///     let books = try store.books(offset: context.page.offset, limit: context.page.limit ?? 100, search: context.searchTerm)
///     return BooksController(books: books, offset: context.page.offset, total: try store.count(search: context.searchTerm))
/// }
/// ```
///
/// Such a controller reports the whole list's row count (`numberOfRows(inSection:)`) and answers
/// for the rows of ``page`` only: Cellar asks it for no other row.
public struct ListContext: Sendable {
    /// The request (query, headers, id).
    public let request: Request
    /// The path the list is mounted at (`/people`).
    public let listPath: String
    /// The rows asked for (`offset`, `limit`), clamped by the list's paging.
    public let page: PageRequest
    /// The row asked for on a detail route (`/books/42` → `42`), or nil for the list itself.
    /// The controller is asked for this row's ``TableController/indexPath(forRowWithIdentifier:)``.
    public let rowIdentifier: String?

    /// The names a list's query reserves for itself; every other item is a filter.
    /// (`filter_column`, `filter_op` and `filter_value` are a filter form's fields, which a
    /// database list turns into `column__op=value`; `facet` and `facet_size` its facets; `editing` puts the list in editing mode.)
    public static let reservedNames: Set<String> = [
        "offset", "limit", "sort", "q", "fragment", "cursor", "filter_column", "filter_op", "filter_value", "facet", "facet_size",
        "editing",
    ]

    public init(request: Request, listPath: String, page: PageRequest, rowIdentifier: String? = nil) {
        self.request = request
        self.listPath = listPath
        self.page = page
        self.rowIdentifier = rowIdentifier
    }

    /// The request's query items.
    public var query: QueryItems { request.query }

    /// The order asked for: each `sort` item, `name` ascending or `-name` descending, in order.
    /// Which keys a list accepts is its controller's to say (a 400 naming them for any other).
    public var sort: [SortKey] {
        query.values(for: "sort").filter { !$0.isEmpty && $0 != "-" }.map { value in
            value.hasPrefix("-") ? SortKey(String(value.dropFirst()), ascending: false) : SortKey(value, ascending: true)
        }
    }

    /// The words searched for (`q`), or nil when there are none.
    public var searchTerm: String? {
        guard let term = query["q"], !term.isEmpty else { return nil }
        return term
    }

    /// The query's other items, in order: every name not in ``reservedNames``, and not starting
    /// with `_` or `utm_` (left for the client's own use).
    public var filters: [(name: String, value: String)] {
        query.filter { item in
            !Self.reservedNames.contains(item.name) && !item.name.hasPrefix("_") && !item.name.hasPrefix("utm_")
        }.map { (name: $0.name, value: $0.value) }
    }
}

/// One key of a list's order: `sort=name` or `sort=-name`.
public struct SortKey: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var ascending: Bool

    public init(_ name: String, ascending: Bool = true) {
        self.name = name
        self.ascending = ascending
    }

    public var description: String { ascending ? name : "-" + name }
}

/// A controller whose list can be searched: the page shows a search form for it.
public protocol SearchableController: TableController {
    /// The term searched for (`q` in the query), shown in the search field.
    var searchTerm: String { get }
    /// The label of the search field.
    var searchPrompt: String { get }
}
