import MicroHTTP

/// How a list pages: a default and a maximum number of rows per page, or no paging at all.
public enum ListPaging: Sendable, Equatable {
    /// Pages of `defaultLimit` rows; a client may ask for up to `maxLimit` (more is clamped).
    case pages(defaultLimit: Int = 50, maxLimit: Int = 500)
    /// Every row in one response, streamed in chunks when large.
    case unpaged
    /// Pages the controller fetches itself and says how to reach the next: by a `cursor` (keyset
    /// paging, which costs the same at any depth) or an offset. The controller holds just its page
    /// and conforms to ``FetchedPageController``.
    case keyset(defaultLimit: Int = 100, maxLimit: Int = 1000)

    /// Pages of 50 rows, up to 500 on request.
    public static let paged = ListPaging.pages()

    /// Whether the controller fetches its page rather than holding every row.
    public var fetchesPages: Bool {
        if case .keyset = self { return true }
        return false
    }
}

/// The rows a request asks for, read from its query before the controller is made: a controller
/// backed by a store fetches just these (one query a page).
public struct PageRequest: Sendable, Equatable {
    /// The first row asked for (0-based, counting across sections).
    public var offset: Int
    /// Rows per page after clamping; nil for an unpaged list asked for every row.
    public var limit: Int?
    /// The limit the client asked for, when it asked for one.
    public var requestedLimit: Int?
    /// Whether the limit was lowered to the list's maximum (or raised to 1).
    public var limitClamped: Bool
    /// The list's maximum page size; nil when unpaged.
    public var maxLimit: Int?
    /// The `cursor` the client sent (a ``ListPaging/keyset(defaultLimit:maxLimit:)`` list's), as
    /// sent: the controller that wrote it reads it, and answers 400 for one it cannot.
    public var cursor: String?

    /// The rows asked for: `offset..<offset + limit` (to the end of the list when unpaged).
    /// Rows past the end of the list are not shown.
    public var rows: Range<Int> { offset..<(limit.map { offset + $0 } ?? Int.max) }

    /// The first page of a list paged as `paging`, at its default size.
    public init(firstOf paging: ListPaging) {
        offset = 0
        requestedLimit = nil
        limitClamped = false
        switch paging {
        case .unpaged:
            limit = nil
            maxLimit = nil
        case .pages(let defaultLimit, let maximum), .keyset(let defaultLimit, let maximum):
            limit = min(max(defaultLimit, 1), maximum)
            maxLimit = maximum
        }
    }

    /// Reads `offset` and `limit` from the query.
    ///
    /// A malformed or negative value is a 400 whose message says what is accepted; a limit above
    /// the maximum is clamped (and ``limitClamped`` says so).
    public init(query: QueryItems, paging: ListPaging) throws(HTTPError) {
        offset = try Self.parse("offset", query["offset"]) ?? 0
        let requested = try Self.parse("limit", query["limit"])
        requestedLimit = requested
        if case .keyset = paging, let cursor = query["cursor"], !cursor.isEmpty { self.cursor = cursor }
        switch paging {
        case .unpaged:
            limit = requested.map { max($0, 1) }
            limitClamped = false
            maxLimit = nil
        case .pages(let defaultLimit, let maximum), .keyset(let defaultLimit, let maximum):
            let wanted = requested ?? defaultLimit
            limit = min(max(wanted, 1), maximum)
            limitClamped = limit != wanted
            maxLimit = maximum
        }
    }

    /// The largest value accepted before clamping, so absurd digit strings clamp instead of failing.
    static let ceiling = 1 << 40

    static func parse(_ name: String, _ value: String?) throws(HTTPError) -> Int? {
        guard let value, !value.isEmpty else { return nil }
        guard value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            if value.hasPrefix("-"), value.dropFirst().allSatisfy(\.isNumber) {
                throw HTTPError.badRequest("\(name) must not be negative (got \(shown)).")
            }
            throw HTTPError.badRequest("\(name) must be a whole number of 0 or more (got “\(shown)”).")
        }
        // All digits: anything too long for Int is simply very large, and gets clamped.
        return Int(value).map { min($0, ceiling) } ?? ceiling
    }
}

/// Where a page link leads: a row offset, or a cursor a ``FetchedPageController`` wrote.
public enum PageAnchor: Sendable, Equatable {
    case offset(Int)
    case cursor(String)
}

/// One request's window of a list: which rows, and what was asked for.
public struct Page: Sendable, Equatable {
    /// The number of the first row shown in the whole list (0-based, across sections).
    public var offset: Int
    /// Rows per page, after clamping.
    public var limit: Int
    /// Every row in the list, or (when ``totalIsExact`` is false) as many as were counted.
    public var total: Int
    /// Whether ``total`` is the list's exact row count; a list over a large store may stop counting.
    public var totalIsExact = true
    /// The limit the client asked for, when it asked for one.
    public var requestedLimit: Int?
    /// Whether the limit was lowered to the list's maximum (or raised to 1).
    public var limitClamped: Bool
    /// The list's maximum page size; nil when unpaged.
    public var maxLimit: Int?
    /// The controller's rows that are shown: the page's rows in the whole list, or every row of a
    /// controller that holds just its page.
    public var window: Range<Int>
    /// This page, the next and the previous (nil on the last and the first).
    public var current: PageAnchor
    public var next: PageAnchor?
    public var previous: PageAnchor?

    /// Where the next page starts, when it is reached by offset.
    public var nextOffset: Int? { if case .offset(let offset) = next { offset } else { nil } }
    /// Where the previous page starts, when it is reached by offset.
    public var previousOffset: Int? { if case .offset(let offset) = previous { offset } else { nil } }

    /// The page a request asked for, in a list of `total` rows: an offset past the end is clamped to it.
    public init(_ request: PageRequest, total: Int) {
        self.total = total
        offset = min(request.offset, total)
        let remaining = max(total - offset, 0)
        // Unpaged, the limit is what is left of the list, or less when the client asked for less.
        limit = request.maxLimit == nil ? min(remaining, request.limit ?? remaining) : request.limit ?? remaining
        requestedLimit = request.requestedLimit
        limitClamped = request.limitClamped
        maxLimit = request.maxLimit
        window = offset..<min(total, offset + limit)
        current = .offset(offset)
        next = offset + limit < total ? .offset(offset + limit) : nil
        previous = offset > 0 ? .offset(max(0, offset - limit)) : nil
    }

    /// The page a ``FetchedPageController`` fetched: all `rowsHeld` rows it holds are shown.
    public init(_ request: PageRequest, fetched: FetchedPage, rowsHeld: Int) {
        offset = fetched.firstRow
        limit = request.limit ?? rowsHeld
        total = fetched.total
        totalIsExact = fetched.totalIsExact
        requestedLimit = request.requestedLimit
        limitClamped = request.limitClamped
        maxLimit = request.maxLimit
        window = 0..<rowsHeld
        current = request.cursor.map { .cursor($0) } ?? .offset(request.offset)
        next = fetched.next
        previous = fetched.previous
    }

    /// Reads `offset` and `limit` from the query, for a list of `total` rows (see ``PageRequest``).
    public init(query: QueryItems, paging: ListPaging, total: Int) throws(HTTPError) {
        self.init(try PageRequest(query: query, paging: paging), total: total)
    }
}
