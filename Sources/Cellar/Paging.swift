import MicroHTTP

/// How a list pages: a default and a maximum number of rows per page, or no paging at all.
public enum ListPaging: Sendable, Equatable {
    /// Pages of `defaultLimit` rows; a client may ask for up to `maxLimit` (more is clamped).
    case paged(defaultLimit: Int = 50, maxLimit: Int = 500)
    /// Every row in one response, streamed in chunks when large.
    case unpaged

    public static var paged: ListPaging { .paged() }
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

    /// Reads `offset` and `limit` from the query, for a list of `total` rows.
    ///
    /// A malformed or negative value is a 400 whose message says what is accepted; a limit above
    /// the maximum is clamped (and ``limitClamped`` says so), as is an offset past the end.
    public init(query: QueryItems, paging: ListPaging, total: Int) throws(HTTPError) {
        self.total = total
        let offset = try Page.parse("offset", query["offset"]) ?? 0
        let requested = try Page.parse("limit", query["limit"])
        requestedLimit = requested
        switch paging {
        case .unpaged:
            self.offset = min(offset, total)
            limit = max(total - self.offset, 0)
            limitClamped = false
            maxLimit = nil
            if let requested { limit = min(limit, max(requested, 1)) }
        case .paged(let defaultLimit, let maximum):
            self.offset = min(offset, total)
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
