import TableKit

/// A controller that holds one page of its list, fetched from a store, rather than the whole
/// list: the rows it reports are the page's, and it says where they lie and how to reach the
/// pages around them. Lists mounted with ``ListPaging/keyset(defaultLimit:maxLimit:)`` have one.
///
/// Cellar calls ``fetchPage()`` once per request, after the request's validators were checked
/// against ``TableController/contentVersion`` (a client that holds the page costs no fetch) and
/// before it asks for any row; a fetch that fails answers the request with its error.
public protocol FetchedPageController: TableController {
    /// Fetches the page the controller was made for (its context's ``ListContext/page``).
    func fetchPage() throws
    /// Where the fetched page lies; read after ``fetchPage()``.
    var fetchedPage: FetchedPage { get }
}

/// Where a fetched page lies in its list.
public struct FetchedPage: Sendable, Equatable {
    /// The number of the page's first row in the whole list (0-based), as far as it is known.
    public var firstRow: Int
    /// The rows in the list, or as many as were counted when ``totalIsExact`` is false.
    public var total: Int
    public var totalIsExact: Bool
    /// The next page, or nil on the last.
    public var next: PageAnchor?
    /// The previous page, or nil when there is none or it cannot be reached backwards.
    public var previous: PageAnchor?

    public init(firstRow: Int, total: Int, totalIsExact: Bool = true, next: PageAnchor?, previous: PageAnchor? = nil) {
        self.firstRow = firstRow
        self.total = total
        self.totalIsExact = totalIsExact
        self.next = next
        self.previous = previous
    }
}
