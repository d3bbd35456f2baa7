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
        name == "offset" || name == "limit" || name == "fragment"
    }

    /// The most bytes a URL holds after its prefix: `offset=` and `&limit=` with up to 20
    /// characters each, and `&fragment=rows`.
    private static let suffixCapacity = 7 + 20 + 7 + 20 + 14
    /// The most bytes a `Link` header adds around each URL: `, <`, `>; rel="first"`.
    private static let linkCapacity = 3 + 14

    /// Lends a page's URL, `path?…&offset=20&limit=10` (with `&fragment=rows` for the rows
    /// fragment), as UTF-8 bytes written into scratch memory (on the stack unless the
    /// prefix is long): the links of a page are written for every request, and each `String`
    /// would be an allocation.
    func withURL<Result>(offset: Int, fragment: Bool = false, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefix.count + Self.suffixCapacity) { scratch in
            let count = writeURL(offset: offset, fragment: fragment, into: scratch.baseAddress!)
            return body(UnsafeBufferPointer(rebasing: scratch[..<count]))
        }
    }

    /// Writes a page's URL at `out`, which has room for the prefix and ``suffixCapacity`` more
    /// bytes; returns the bytes written.
    private func writeURL(offset: Int, fragment: Bool, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var count = prefix.withUnsafeBufferPointer { source in
            out.update(from: source.baseAddress!, count: source.count)
            return source.count
        }
        count += Self.write("offset=", at: out + count)
        count += HTMLWriter.writeDecimal(offset, into: out + count)
        count += Self.write("&limit=", at: out + count)
        count += HTMLWriter.writeDecimal(page.limit, into: out + count)
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
        String(unsafeUninitializedCapacity: 3 * (prefix.count + Self.suffixCapacity + Self.linkCapacity)) { buffer in
            let out = buffer.baseAddress!
            var count = 0
            func link(_ offset: Int, _ relation: StaticString) {
                if count > 0 { count += Self.write(", ", at: out + count) }
                count += Self.write("<", at: out + count)
                count += writeURL(offset: offset, fragment: false, into: out + count)
                count += Self.write(">; rel=\"", at: out + count)
                count += Self.write(relation, at: out + count)
                count += Self.write("\"", at: out + count)
            }
            if let next = page.nextOffset { link(next, "next") }
            if let previous = page.previousOffset { link(previous, "prev") }
            link(0, "first")
            return count
        }
    }
}
