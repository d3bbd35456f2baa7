import MicroHTTP

/// How a list pages: a default and a maximum number of rows per page, or no paging at all.
public enum ListPaging: Sendable, Equatable {
    /// Pages of `defaultLimit` rows; a client may ask for up to `maxLimit` (more is clamped).
    case pages(defaultLimit: Int = 50, maxLimit: Int = 500)
    /// Every row in one response, streamed in chunks when large.
    case unpaged

    /// Pages of 50 rows, up to 500 on request.
    public static let paged = ListPaging.pages()
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
        case .pages(let defaultLimit, let maximum):
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
        switch paging {
        case .unpaged:
            limit = requested.map { max($0, 1) }
            limitClamped = false
            maxLimit = nil
        case .pages(let defaultLimit, let maximum):
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

/// One request's window of a list: which rows, and what was asked for.
public struct Page: Sendable, Equatable {
    /// The first row shown (0-based, across sections).
    public var offset: Int
    /// Rows per page, after clamping.
    public var limit: Int
    /// Every row in the list.
    public var total: Int
    /// The limit the client asked for, when it asked for one.
    public var requestedLimit: Int?
    /// Whether the limit was lowered to the list's maximum (or raised to 1).
    public var limitClamped: Bool
    /// The list's maximum page size; nil when unpaged.
    public var maxLimit: Int?

    /// The rows shown.
    public var window: Range<Int> { offset..<min(total, offset + limit) }
    /// Where the next page starts, or nil on the last page.
    public var nextOffset: Int? { offset + limit < total ? offset + limit : nil }
    /// Where the previous page starts, or nil on the first.
    public var previousOffset: Int? { offset > 0 ? max(0, offset - limit) : nil }

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
    }

    /// Reads `offset` and `limit` from the query, for a list of `total` rows (see ``PageRequest``).
    public init(query: QueryItems, paging: ListPaging, total: Int) throws(HTTPError) {
        self.init(try PageRequest(query: query, paging: paging), total: total)
    }
}
