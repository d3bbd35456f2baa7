/// An ordered list of HTTP header fields with case-insensitive name lookup.
///
/// Order and repeated names are kept, as they arrived or were added. Names and values set
/// through this API are sanitised so a handler cannot inject extra header lines: CR, LF and
/// NUL are removed from values, and a name keeps only HTTP token characters.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public typealias Element = (name: String, value: String)

    private var fields: [Element]

    /// Creates an empty header list.
    public init() {
        fields = []
    }

    /// Creates a header list from name–value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        fields = []
        fields.reserveCapacity(pairs.count)
        for (name, value) in pairs { add(name: name, value: value) }
    }

    /// Creates a header list from a literal such as `["Content-Type": "text/plain"]`, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// Makes room for `count` fields in all, so that adding them does not grow the list step by step.
    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// The value of the first field with this name (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        firstIndex(of: name).map { fields[$0].value }
    }

    /// All values for this name (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesEqual($0.name, name) }.map(\.value)
    }

    /// Whether a field with this name (case-insensitive) exists.
    public func contains(_ name: String) -> Bool {
        firstIndex(of: name) != nil
    }

    /// Appends a field, keeping any existing fields with the same name.
    public mutating func add(name: String, value: String) {
        fields.append((Self.sanitisedName(name), Self.sanitisedValue(value)))
    }

    /// Replaces the first field with this name and removes the others, or appends one.
    public mutating func replaceOrAdd(name: String, value: String) {
        let clean = (name: Self.sanitisedName(name), value: Self.sanitisedValue(value))
        guard let index = firstIndex(of: name) else {
            fields.append(clean)
            return
        }
        fields[index] = clean
        var next = index + 1
        while let later = firstIndex(of: name, from: next) {
            fields.remove(at: later)
            next = later
        }
    }

    /// The index of the first field from `start` with this name (case-insensitive). Each field is
    /// compared where it is stored: walking the array copied every field (two strings retained
    /// and released) for each lookup, and a request's headers are looked up a dozen times
    /// (BENCHMARKS.md, "A signed-in request's cost, again").
    private func firstIndex(of name: String, from start: Int = 0) -> Int? {
        fields.withUnsafeBufferPointer { fields in
            for index in start..<fields.count where Self.namesEqual(fields[index].name, name) { return index }
            return nil
        }
    }

    /// Removes every field with this name (case-insensitive).
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesEqual($0.name, name) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// Appends a field exactly as received from the wire (MHD already split and trimmed it).
    mutating func appendReceived(name: String, value: String) {
        fields.append((name, value))
    }

    /// ASCII case-insensitive comparison, which is what HTTP field names need.
    static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        // The byte count is known without a scan, and most names differ in length: every
        // response checks each default header against its own fields.
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // A native string's own bytes, borrowed: `withUTF8` needs a `var`, a copy of each string.
        let equal = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in namesEqual(left, right) }
        }
        if let equal, let equal { return equal }
        return zip(lhs.utf8, rhs.utf8).allSatisfy { $0 == $1 || lowercase($0) == lowercase($1) }
    }

    /// Whether two names' bytes are equal ignoring ASCII case.
    static func namesEqual(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        for index in left.indices where left[index] != right[index] && lowercase(left[index]) != lowercase(right[index]) {
            return false
        }
        return true
    }

    /// Whether a name's bytes equal `right` (a constant name's bytes) ignoring ASCII case.
    static func namesEqual(_ left: UnsafeBufferPointer<UInt8>, _ right: [UInt8]) -> Bool {
        right.withUnsafeBufferPointer { namesEqual(left, $0) }
    }

    /// Calls `body` with each field in order, lent where it is stored: no copy of the strings.
    func forEachField(_ body: (borrowing String, borrowing String) throws -> Void) rethrows {
        try fields.withUnsafeBufferPointer { fields in
            for index in fields.indices { try body(fields[index].name, fields[index].value) }
        }
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }

    private static func sanitisedValue(_ value: String) -> String {
        // The string's own bytes, borrowed (`withUTF8` needs a `var`: a copy of the string).
        let clean = value.utf8.withContiguousStorageIfAvailable(isCleanValue) ?? value.utf8.allSatisfy(isFieldValueByte)
        if clean { return value }
        return String(decoding: value.utf8.filter(isFieldValueByte), as: UTF8.self)
    }

    private static func sanitisedName(_ name: String) -> String {
        let clean = name.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isTokenByte) } ?? name.utf8.allSatisfy(isTokenByte)
        if clean { return name }
        return String(decoding: name.utf8.filter(isTokenByte), as: UTF8.self)
    }

    /// Whether no byte is CR, LF or NUL, tested eight bytes at a time: every response's values
    /// pass through here, and a Content-Security-Policy is long.
    private static func isCleanValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        // Exact for "is any byte of `word` zero" (it may also flag bytes above a zero one).
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & (ones &* 0x80) != 0 }
        var index = 0
        while index &+ 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if hasZeroByte(word) || hasZeroByte(word ^ (ones &* 0x0D)) || hasZeroByte(word ^ (ones &* 0x0A)) { return false }
            index &+= 8
        }
        while index < bytes.count {
            if !isFieldValueByte(base[index]) { return false }
            index &+= 1
        }
        return true
    }

    /// Anything but CR, LF and NUL, which could end a header line or a C string early.
    private static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte != 0x0D && byte != 0x0A && byte != 0
    }

    /// RFC 9110 `tchar` (letters, digits, the backtick and `!#$%&'*+-.^_|~`), as one bit each of
    /// two words (bytes 0–63 and 64–127) instead of a chain of comparisons.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case ..<64: return (0x03FF_6CFA_0000_0000 as UInt64) &>> UInt64(byte) & 1 == 1
        case ..<128: return (0x57FF_FFFF_C7FF_FFFE as UInt64) &>> UInt64(byte &- 64) & 1 == 1
        default: return false
        }
    }
}
