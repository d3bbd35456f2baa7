import ByteWriters

extension DatabaseValue {
    /// The identifier of the section that groups rows by this value
    /// (``TableController/identifier(forSection:)``): the same on every page the group reaches,
    /// so that "Load more" adds a page's rows to the section the page already shows, and a live
    /// list keys the section by it.
    ///
    /// Typed, so that values SQLite tells apart differ: `null`, `i:1` (an integer, or a real with
    /// an integer's value, which SQLite sorts and groups with it), `r:1.5` (a real, its shortest
    /// exact spelling), `t:1` (text), `b:` and the bytes in hex (a blob). Text over 64 bytes and
    /// blobs over 32 are named by a digest of their bytes and their length instead (`t#…-N`,
    /// `b#…-N`), so that a long value does not repeat five times in every section the page writes.
    var sectionIdentifier: String {
        switch self {
        case .null:
            return "null"
        case .integer(let integer):
            return "i:\(integer)"
        case .real(let real):
            if let integer = Int64(exactly: real) { return "i:\(integer)" }
            return "r:\(real)"
        case .text(let text):
            let count = text.utf8.count
            guard count > Self.longText else { return "t:" + text }
            var hash = StableHash()
            hash.combine(text)
            return "t#" + String(hash.value, radix: 16) + "-\(count)"
        case .blob(let bytes):
            guard bytes.count > Self.longBlob else { return "b:" + HexDigits.string(of: bytes) }
            var hash = StableHash()
            hash.combine(bytes: bytes)
            return "b#" + String(hash.value, radix: 16) + "-\(bytes.count)"
        }
    }

    /// Whether a row with `other` belongs to this value's section: equal values, and an integer
    /// and a real of the same value (SQLite orders them as equal, so their rows are interleaved).
    func isInSameSection(as other: DatabaseValue) -> Bool {
        switch (self, other) {
        case (.integer(let integer), .real(let real)), (.real(let real), .integer(let integer)):
            return Int64(exactly: real) == integer
        case (.real(let left), .real(let right)):
            // 0.0 and -0.0 are one value to SQLite, as to `==`.
            return left == right
        default:
            return self == other
        }
    }

    /// The longest text and blob named by their bytes in a section identifier.
    static let longText = 64
    static let longBlob = 32
}
