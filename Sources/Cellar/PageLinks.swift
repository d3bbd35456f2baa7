import ByteWriters
import MicroHTTP
import TableKit

/// The URLs of a page and its neighbours, keeping the request's other query items (`q`, …).
struct PageLinks: Sendable {
    let page: Page
    /// `path?` and the query items other than paging ones, encoded once: every link of a page starts with it.
    private let prefix: [UInt8]

    init(path: String, query: QueryItems, page: Page) {
        self.page = page
        var prefix: [UInt8] = []
        prefix.reserveCapacity(path.utf8.count + 1)
        prefix.append(contentsOf: path.utf8)
        prefix.append(UInt8(ascii: "?"))
        // Most queries hold only paging items: then there is nothing to keep, and no copy of the
        // items is made to remove them from.
        if query.contains(where: { !Self.isPagingItem($0.name) }) {
            var query = query
            query.removeAll { Self.isPagingItem($0.name) }
            prefix.append(contentsOf: query.percentEncoded.utf8)
            prefix.append(UInt8(ascii: "&"))
        }
        self.prefix = prefix
    }

    /// The items a page's links set themselves.
    private static func isPagingItem(_ name: String) -> Bool {
        name == "offset" || name == "limit" || name == "fragment" || name == "cursor"
    }

    /// The most bytes a URL holds after its prefix: `offset=` and `&limit=` with up to 20
    /// characters each, and `&fragment=rows`.
    private static let suffixCapacity = 7 + 20 + 7 + 20 + 14
    /// The bytes a URL to `anchor` may take after its prefix: a cursor takes up to three a byte, encoded.
    private static func suffixCapacity(_ anchor: PageAnchor) -> Int {
        if case .cursor(let cursor) = anchor { return suffixCapacity + 3 * cursor.utf8.count }
        return suffixCapacity
    }
    /// The most bytes a `Link` header adds around each URL: `, <`, `>; rel="first"`.
    private static let linkCapacity = 3 + 14

    /// Lends a page's URL, `path?…&offset=20&limit=10` (with `&fragment=rows` for the rows
    /// fragment), as UTF-8 bytes written into scratch memory (on the stack unless the
    /// prefix is long): the links of a page are written for every request, and each `String`
    /// would be an allocation.
    func withURL<Result>(offset: Int, fragment: Bool = false, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withURL(.offset(offset), fragment: fragment, body)
    }

    /// Lends the URL of the page at `anchor` (`…&cursor=…&limit=10` for a cursor).
    func withURL<Result>(_ anchor: PageAnchor, fragment: Bool = false, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefix.count + Self.suffixCapacity(anchor)) { scratch in
            let count = writeURL(anchor, fragment: fragment, into: scratch.baseAddress!)
            return body(UnsafeBufferPointer(rebasing: scratch[..<count]))
        }
    }

    /// Writes a page's URL at `out`, which has room for the prefix and ``suffixCapacity(_:)`` more
    /// bytes; returns the bytes written.
    private func writeURL(_ anchor: PageAnchor, fragment: Bool, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var count = prefix.withUnsafeBufferPointer { source in
            out.update(from: source.baseAddress!, count: source.count)
            return source.count
        }
        switch anchor {
        case .offset(let offset):
            count += Self.write("offset=", at: out + count)
            count += DecimalDigits.write(offset, into: out + count)
        case .cursor(let cursor):
            count += Self.write("cursor=", at: out + count)
            var cursor = cursor
            count += cursor.withUTF8 { PercentEncoding.writeSegment($0, into: out + count) }
        }
        count += Self.write("&limit=", at: out + count)
        count += DecimalDigits.write(page.limit, into: out + count)
        if fragment { count += Self.write("&fragment=rows", at: out + count) }
        return count
    }

    private static func write(_ literal: StaticString, at out: UnsafeMutablePointer<UInt8>) -> Int {
        out.update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return literal.utf8CodeUnitCount
    }

    /// The longest `Link` header sent, in bytes; a longer one (a query of hundreds of bytes) is left out.
    static let largestHeader = 2048

    /// The `Link` header: rel next and prev, and first.
    var header: String {
        let anchors = [page.next, page.previous, PageAnchor.offset(0)]
        let capacity = anchors.reduce(0) { $0 + prefix.count + Self.linkCapacity + ($1.map(Self.suffixCapacity) ?? 0) }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            let out = buffer.baseAddress!
            var count = 0
            func link(_ anchor: PageAnchor, _ relation: StaticString) {
                if count > 0 { count += Self.write(", ", at: out + count) }
                count += Self.write("<", at: out + count)
                count += writeURL(anchor, fragment: false, into: out + count)
                count += Self.write(">; rel=\"", at: out + count)
                count += Self.write(relation, at: out + count)
                count += Self.write("\"", at: out + count)
            }
            if let next = page.next { link(next, "next") }
            if let previous = page.previous { link(previous, "prev") }
            link(.offset(0), "first")
            return count
        }
    }
}
