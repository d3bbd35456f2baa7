import MicroHTTP

/// The URLs of a page and its neighbours, keeping the request's other query items (`q`, …).
struct PageLinks: Sendable {
    let path: String
    let query: QueryItems
    let page: Page
    /// `path?` and the other query items, encoded once: every link of a page starts with it.
    private let prefix: [UInt8]

    init(path: String, query: QueryItems, page: Page) {
        self.path = path
        var query = query
        for name in ["offset", "limit", "fragment"] { query.set(name, to: nil) }
        self.query = query
        self.page = page
        prefix = Self.prefix(path: path, query: query)
    }

    private static func prefix(path: String, query: QueryItems) -> [UInt8] {
        Array((path + "?" + (query.isEmpty ? "" : query.percentEncoded + "&")).utf8)
    }

    /// A page's URL: `path?…&offset=20&limit=10`, with `&fragment=rows` for the rows fragment.
    func url(offset: Int, limit: Int? = nil, fragment: Bool = false, path: String? = nil) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(prefix.count + 64)
        writeURL(offset: offset, limit: limit, fragment: fragment, prefix: path.map { Self.prefix(path: $0, query: query) } ?? prefix, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends a page's URL as bytes (a list's links are written for every request: no string building).
    private func writeURL(offset: Int, limit: Int?, fragment: Bool, prefix: [UInt8], into bytes: inout [UInt8]) {
        bytes.append(contentsOf: prefix)
        Self.append("offset=", to: &bytes)
        Self.appendDecimal(offset, to: &bytes)
        Self.append("&limit=", to: &bytes)
        Self.appendDecimal(limit ?? page.limit, to: &bytes)
        if fragment { Self.append("&fragment=rows", to: &bytes) }
    }

    /// Appends a literal's bytes: as a buffer, which `Array` copies in one move, where a
    /// `String.UTF8View` went through the generic sequence path (~170 instructions each).
    private static func append(_ literal: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") &+ UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    var current: String { url(offset: page.offset) }
    var first: String { url(offset: 0) }
    var previous: String? { page.previousOffset.map { url(offset: $0) } }
    var next: String? { page.nextOffset.map { url(offset: $0) } }

    /// The `Link` header: rel next and prev, and first.
    var header: String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(3 * (prefix.count + 48))
        func link(_ offset: Int, _ relation: StaticString) {
            if !bytes.isEmpty { Self.append(", ", to: &bytes) }
            bytes.append(UInt8(ascii: "<"))
            writeURL(offset: offset, limit: nil, fragment: false, prefix: prefix, into: &bytes)
            Self.append(">; rel=\"", to: &bytes)
            Self.append(relation, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        if let next = page.nextOffset { link(next, "next") }
        if let previous = page.previousOffset { link(previous, "prev") }
        link(0, "first")
        return String(decoding: bytes, as: UTF8.self)
    }
}
