import ByteWriters

/// The decoded items of a query string, in order, with repeated names kept.
///
/// Parsing follows `application/x-www-form-urlencoded`: items are separated by `&`, a name
/// is separated from its value by the first `=`, `+` means a space and `%XX` a byte. Empty
/// items (`a=1&&b`) are skipped, and an item without `=` has the empty value. A malformed
/// escape (`%zz`, a lone `%`) or bytes that are not UTF-8 after decoding make the whole query
/// invalid: ``init(parsing:)-(String)`` throws ``HTTPError/badRequest(_:)`` so the client is told.
public struct QueryItems: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable, CustomStringConvertible {
    /// One query item.
    public typealias Element = (name: String, value: String)

    private var items: [Element]

    /// Creates an empty query.
    public init() {
        items = []
    }

    /// Creates a query from already-decoded name–value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        items = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Creates a query from a literal such as `["offset": "20", "limit": "10"]`, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// Parses a raw (still percent-encoded) query string, without the leading `?`.
    ///
    /// - Throws: ``HTTPError`` with status 400 when an escape is malformed or the decoded bytes are not UTF-8.
    public init(parsing query: String) throws(HTTPError) {
        try self.init(parsing: query.utf8)
    }

    /// Parses a raw query given as bytes (which need not be valid UTF-8 before decoding).
    ///
    /// - Throws: ``HTTPError`` with status 400 when an escape is malformed or the decoded bytes are not UTF-8.
    public init<Bytes: Collection<UInt8>>(parsing bytes: Bytes) throws(HTTPError) {
        items = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            let item = bytes[start..<end]
            if !item.isEmpty {
                let equals = item.firstIndex(of: UInt8(ascii: "="))
                let name = try Self.decode(item[..<(equals ?? item.endIndex)])
                var value = ""
                if let equals { value = try Self.decode(item[item.index(after: equals)...]) }
                items.append((name, value))
            }
            start = end == bytes.endIndex ? end : bytes.index(after: end)
        }
    }

    /// The first value for this name, or nil when the name is absent.
    public subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// Every value for this name, in order (`?tag=a&tag=b` → `["a", "b"]`).
    public func values(for name: String) -> [String] {
        items.filter { $0.name == name }.map(\.value)
    }

    /// The number of items.
    public var count: Int { items.count }

    /// Whether there are no items.
    public var isEmpty: Bool { items.isEmpty }

    /// Appends an item.
    public mutating func append(name: String, value: String) {
        items.append((name, value))
    }

    /// Removes every item for which `shouldBeRemoved` is true, keeping the others in order.
    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        try items.removeAll(where: shouldBeRemoved)
    }

    /// Replaces every item with this name by one item with this value (appended if absent), or removes them when `value` is nil.
    public mutating func set(_ name: String, to value: String?) {
        if let index = items.firstIndex(where: { $0.name == name }), let value {
            items[index].value = value
            items = items.enumerated().filter { $0.offset <= index || $0.element.name != name }.map(\.element)
        } else {
            items.removeAll { $0.name == name }
            if let value { items.append((name, value)) }
        }
    }

    /// The query encoded for a URL (without `?`): unreserved characters as they are, space as `+`, everything else `%XX`.
    public var percentEncoded: String {
        items.map { Self.encode($0.name) + "=" + Self.encode($0.value) }.joined(separator: "&")
    }

    public func makeIterator() -> IndexingIterator<[Element]> {
        items.makeIterator()
    }

    public var description: String { percentEncoded }

    public static func == (lhs: QueryItems, rhs: QueryItems) -> Bool {
        lhs.items.count == rhs.items.count && zip(lhs.items, rhs.items).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    private static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(HTTPError) -> String {
        // Most names and values (`limit`, `20`) have nothing to decode: no byte array in between.
        if !bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) {
            guard let string = utf8String(bytes) else {
                throw HTTPError.badRequest("The query string is not valid UTF-8 once decoded.")
            }
            return string
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let first = bytes.index(after: index)
                guard first < bytes.endIndex, bytes.index(after: first) < bytes.endIndex,
                    let high = HexDigits.value(of: bytes[first]), let low = HexDigits.value(of: bytes[bytes.index(after: first)])
                else {
                    throw HTTPError.badRequest("The query string contains a malformed percent-escape.")
                }
                decoded.append(high << 4 | low)
                index = bytes.index(after: first)
            default:
                decoded.append(byte)
            }
            index = bytes.index(after: index)
        }
        guard let string = utf8String(decoded) else {
            throw HTTPError.badRequest("The query string is not valid UTF-8 once decoded.")
        }
        return string
    }

    /// `bytes` as a string, or nil when they are not UTF-8. ASCII, which nearly every query is,
    /// needs no validation: it skips `String(validating:as:)`, whose generic validator looks up
    /// type metadata on every call.
    static func utf8String<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        let ascii: String?? = bytes.withContiguousStorageIfAvailable { buffer in
            buffer.allSatisfy { $0 < 0x80 } ? String(decoding: buffer, as: UTF8.self) : nil
        }
        if let ascii, let ascii { return ascii }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func encode(_ string: String) -> String {
        // A form's encoding: a space is `+` (so `+` itself is encoded).
        let encoded = PercentEncoding.encoded(string) { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: " ") }
        return encoded.contains(" ") ? encoded.replacing(" ", with: "+") : encoded
    }
}
