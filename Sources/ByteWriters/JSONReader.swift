/// Reads one JSON document (RFC 8259) from bytes, pulled by the code that decodes it: that code
/// asks for an object's members, an array's elements, a string, a number, and builds its own
/// value as it goes, with no tree of the document in between and no `Decoder` (the write API's
/// bodies were read by Foundation's `JSONDecoder`, a seventh of a write's time; BENCHMARKS.md).
///
/// Stricter than the RFC requires, where it leaves a choice: an object that names a member twice,
/// text that is not UTF-8 (a lone surrogate escape included) and nesting deeper than
/// ``maximumDepth`` are refused. A UTF-8 byte order mark before the document is skipped (RFC 8259
/// §8.1 allows it). `\u0000` is read as U+0000: what may hold it is the caller's to judge.
///
/// ```swift
/// var json = JSONReader(body)
/// try json.readObject { json, name in
///     switch name {
///     case "title": title = try json.readString()
///     default: try json.skipValue()
///     }
/// }
/// try json.finish()
/// ```
public struct JSONReader {
    /// What the next value is, by its first byte.
    public enum Kind: Sendable, Equatable {
        case object, array, string, number, bool, null
    }

    /// A number as the document writes it: an integer that `Int64` holds exactly (`42`, `1.0`,
    /// `1e2`), else the nearest `Double` (`0.5`, `1e19`, `9223372036854775808`).
    public enum Number: Sendable, Equatable {
        case integer(Int64)
        case real(Double)
    }

    /// Why the bytes are not a document this reader takes, and where (a byte offset).
    public struct Failure: Error, Sendable, Equatable {
        public enum Reason: Sendable, Equatable {
            /// Not JSON's grammar: an unexpected byte, or the end too early.
            case syntax
            /// Bytes that are not UTF-8, or a `\u` escape of half a surrogate pair.
            case notUTF8
            /// Objects and arrays nested more than this deep.
            case tooDeep(Int)
            /// An object naming this member twice.
            case duplicateName(String)
            /// A number beyond `Double`'s range (`1e400`).
            case numberOutOfRange
        }

        public let reason: Reason
        public let offset: Int

        public init(reason: Reason, offset: Int) {
            self.reason = reason
            self.offset = offset
        }
    }

    /// How deep objects and arrays may nest: deep enough for any body a client means, shallow
    /// enough that a hostile one costs nothing (reading descends by recursion).
    public let maximumDepth: Int

    let bytes: [UInt8]
    var index: Int
    var depth = 0

    /// A reader of `bytes`, positioned before the document's first value.
    public init(_ bytes: [UInt8], maximumDepth: Int = 64) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// The offset of the next byte to read.
    public var offset: Int { index }

    /// Checks that `bytes` are one JSON document this reader takes, reading it all; throws a
    /// ``Failure`` where it is not.
    public static func validate(_ bytes: [UInt8]) throws {
        var reader = JSONReader(bytes)
        try reader.skipValue()
        try reader.finish()
    }

    // MARK: What comes next

    /// The kind of the next value, without reading it.
    public mutating func peek() throws(Failure) -> Kind {
        skipWhitespace()
        guard index < bytes.count else { throw failure(.syntax) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: throw failure(.syntax)
        }
    }

    /// Checks that nothing but whitespace follows the document.
    public mutating func finish() throws(Failure) {
        skipWhitespace()
        guard index == bytes.count else { throw failure(.syntax) }
    }

    // MARK: Objects and arrays

    /// Reads an object, calling `member` with each member's name in the document's order; it
    /// must read the member's value (or ``skipValue()``). A name given twice is refused before
    /// `member` sees it again.
    public mutating func readObject(_ member: (inout JSONReader, String) throws -> Void) throws {
        try enter(UInt8(ascii: "{"))
        if try nextIs(UInt8(ascii: "}")) {
            depth -= 1
            return
        }
        var names = MemberNames()
        repeat {
            try expect(UInt8(ascii: "\""))
            let nameOffset = index - 1
            let name = try readStringBody()
            guard names.insert(name) else { throw Failure(reason: .duplicateName(name), offset: nameOffset) }
            try expect(UInt8(ascii: ":"))
            try member(&self, name)
        } while try nextIs(UInt8(ascii: ","), or: UInt8(ascii: "}"))
        depth -= 1
    }

    /// Reads an array, calling `element` with each element's index; it must read the element.
    public mutating func readArray(_ element: (inout JSONReader, Int) throws -> Void) throws {
        try enter(UInt8(ascii: "["))
        if try nextIs(UInt8(ascii: "]")) {
            depth -= 1
            return
        }
        var count = 0
        repeat {
            try element(&self, count)
            count += 1
        } while try nextIs(UInt8(ascii: ","), or: UInt8(ascii: "]"))
        depth -= 1
    }

    /// Reads any value and drops it, checking it all the same; throws only a ``Failure``.
    public mutating func skipValue() throws {
        switch try peek() {
        case .object: try readObject { json, _ in try json.skipValue() }
        case .array: try readArray { json, _ in try json.skipValue() }
        case .string: _ = try readString()
        case .number: _ = try readNumber()
        case .bool: _ = try readBool()
        case .null: try readNull()
        }
    }

    // MARK: Literals

    /// Reads `true` or `false`.
    public mutating func readBool() throws(Failure) -> Bool {
        skipWhitespace()
        if readLiteral("true") { return true }
        if readLiteral("false") { return false }
        throw failure(.syntax)
    }

    /// Reads `null`.
    public mutating func readNull() throws(Failure) {
        skipWhitespace()
        guard readLiteral("null") else { throw failure(.syntax) }
    }

    /// Reads `null` when it is next, and says whether it was: an optional member's value.
    public mutating func readNullIfPresent() throws(Failure) -> Bool {
        guard try peek() == .null else { return false }
        try readNull()
        return true
    }

    // MARK: Reading bytes

    func failure(_ reason: Failure.Reason) -> Failure {
        Failure(reason: reason, offset: index)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    /// Reads `byte`, after whitespace.
    mutating func expect(_ byte: UInt8) throws(Failure) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw failure(.syntax) }
        index += 1
    }

    /// Reads an object's or array's opening `byte`, one level deeper.
    private mutating func enter(_ byte: UInt8) throws(Failure) {
        try expect(byte)
        depth += 1
        guard depth <= maximumDepth else { throw Failure(reason: .tooDeep(maximumDepth), offset: index - 1) }
    }

    /// Reads `byte` if it is next (after whitespace).
    private mutating func nextIs(_ byte: UInt8) throws(Failure) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw failure(.syntax) }
        guard bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Reads `more` (true) or `end` (false), whichever is next: what follows a member or an element.
    private mutating func nextIs(_ more: UInt8, or end: UInt8) throws(Failure) -> Bool {
        if try nextIs(more) { return true }
        if try nextIs(end) { return false }
        throw failure(.syntax)
    }

    /// Reads `word` if the bytes from here spell it.
    private mutating func readLiteral(_ word: String) -> Bool {
        let count = word.utf8.count
        guard index + count <= bytes.count, bytes[index..<index + count].elementsEqual(word.utf8) else { return false }
        index += count
        return true
    }
}

/// The names one object has given so far, to refuse one given twice: the first few compared in a
/// list (an object of a body has a handful, and hashing each would cost more), the rest in a set.
private struct MemberNames {
    private static let listed = 16
    private var list: [String] = []
    private var set: Set<String> = []

    /// Adds `name`; false when the object gave it already.
    mutating func insert(_ name: String) -> Bool {
        if list.contains(name) { return false }
        if list.count < Self.listed {
            if list.isEmpty { list.reserveCapacity(Self.listed) }
            list.append(name)
            return true
        }
        return set.insert(name).inserted
    }
}
