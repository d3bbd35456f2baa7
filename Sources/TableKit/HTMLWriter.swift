/// Appends HTML to a byte buffer, escaping every piece of text by construction.
///
/// ``text(_:)-(String)`` and ``attribute(_:_:)-(_,String)`` escape `&`, `<`, `>`, `"` and `'` (as `&amp;`, `&lt;`,
/// `&gt;`, `&quot;`, `&#39;`), so data can never become markup. Markup itself goes in through
/// ``raw(_:)``, which only takes a `StaticString` (a literal the programmer wrote), or through
/// ``unsafeRaw(_:)``, whose name says what it is.
///
/// The writer is the hot path of every list: it works on UTF-8 bytes and copies unescaped runs
/// in bulk, with no `String` building and no Foundation.
///
/// ```swift
/// html.raw("<span class=\"cell-title\">")
/// html.text(person.name)          // "Person 7 <b>" → "Person 7 &lt;b&gt;"
/// html.raw("</span>")
/// ```
public struct HTMLWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8] { buffer }
    @usableFromInline var buffer: [UInt8]

    public init(capacity: Int = 0) {
        buffer = []
        buffer.reserveCapacity(capacity)
    }

    /// Wraps an existing buffer (its contents are kept; its capacity is reused).
    public init(reusing buffer: [UInt8]) {
        self.buffer = buffer
    }

    /// The number of bytes written.
    @inlinable public var count: Int { buffer.count }

    /// The bytes as a string (for tests and small documents).
    public var string: String { String(decoding: buffer, as: UTF8.self) }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll(keepingCapacity: Bool = true) {
        buffer.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Takes the bytes out, leaving the writer empty.
    public mutating func takeBytes() -> [UInt8] {
        let taken = buffer
        buffer = []
        return taken
    }

    /// Moves the first `count` bytes out (the rest stay), for a stream that sends in chunks.
    public mutating func removeFirst(_ count: Int) {
        buffer.removeFirst(count)
    }

    // MARK: Markup (trusted)

    /// Appends markup written in the source code. A `StaticString` cannot carry data from a request.
    @inlinable public mutating func raw(_ markup: StaticString) {
        markup.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// Appends markup that is not escaped. Only for HTML the program made itself and trusts.
    public mutating func unsafeRaw(_ markup: String) {
        var markup = markup
        markup.withUTF8 { buffer.append(contentsOf: $0) }
    }

    /// Appends bytes that are not escaped. Only for HTML the program made itself and trusts.
    public mutating func unsafeRaw<Bytes: Sequence>(bytes markup: Bytes) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: markup)
    }

    // MARK: Text (escaped)

    /// Appends text, escaped for an element's content or an attribute value.
    @inlinable public mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { HTMLWriter.appendEscaped($0, to: &buffer) }
    }

    /// Appends text from a substring, escaped.
    public mutating func text(_ text: Substring) {
        var text = text
        text.withUTF8 { HTMLWriter.appendEscaped($0, to: &buffer) }
    }

    /// Appends an integer in decimal.
    public mutating func text(_ number: Int) {
        HTMLWriter.appendDecimal(number, to: &buffer)
    }

    /// Appends an integer with thousands separators (`10,000`).
    public mutating func text(grouping number: Int) {
        if number < 0 { buffer.append(UInt8(ascii: "-")) }
        // Int.min has no positive twin: group its magnitude.
        HTMLWriter.appendGrouped(number.magnitude, to: &buffer)
    }

    /// Appends text for use inside an attribute value (the same escaping as ``text(_:)-(String)``).
    @inlinable public mutating func attributeText(_ value: String) { text(value) }

    /// Appends ` name="value"` with the value escaped.
    @inlinable public mutating func attribute(_ name: StaticString, _ value: String) {
        buffer.append(UInt8(ascii: " "))
        raw(name)
        buffer.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "\"")])
        text(value)
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends ` name="number"`.
    public mutating func attribute(_ name: StaticString, _ value: Int) {
        buffer.append(UInt8(ascii: " "))
        raw(name)
        buffer.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "\"")])
        text(value)
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends a URL path segment, percent-encoding everything but unreserved characters,
    /// so the result is safe both as a path segment and inside an attribute value.
    public mutating func pathSegment(_ segment: String) {
        for byte in segment.utf8 {
            if HTMLWriter.isUnreserved(byte) {
                buffer.append(byte)
            } else {
                buffer.append(UInt8(ascii: "%"))
                buffer.append(HTMLWriter.hexDigits[Int(byte >> 4)])
                buffer.append(HTMLWriter.hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    // MARK: Elements

    /// Writes `<tag class="…">`, the body, and `</tag>`.
    public mutating func element(
        _ tag: StaticString, class className: StaticString? = nil, _ body: (inout HTMLWriter) throws -> Void
    ) rethrows {
        buffer.append(UInt8(ascii: "<"))
        raw(tag)
        if let className {
            raw(" class=\"")
            raw(className)
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(UInt8(ascii: ">"))
        try body(&self)
        raw("</")
        raw(tag)
        buffer.append(UInt8(ascii: ">"))
    }

    /// Writes `<tag class="…">text</tag>` with the text escaped.
    public mutating func element(_ tag: StaticString, class className: StaticString? = nil, text content: String) {
        element(tag, class: className) { $0.text(content) }
    }

    // MARK: Escaping

    @usableFromInline static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    @usableFromInline static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// What each byte needs: 0 nothing, 1 an entity, 2 a closer look (controls and the lead
    /// bytes of C1 controls and noncharacters, which HTML forbids).
    @usableFromInline static let byteClass: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in [0x26, 0x3C, 0x3E, 0x22, 0x27] { table[byte] = 1 }
        for byte in 0x00...0x1F where byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D { table[byte] = 2 }
        table[0x7F] = 2
        table[0xC2] = 2
        table[0xEF] = 2
        for byte in 0xF0...0xF4 { table[byte] = 2 }
        return table
    }()

    /// Appends `source` with `& < > " '` replaced by entities, copying clean runs in bulk.
    ///
    /// Code points HTML forbids in a document — controls other than tab, newline, form feed and
    /// carriage return, C1 controls and noncharacters — become U+FFFD, so that what is written
    /// always parses back to the same text a validator accepts.
    @usableFromInline static func appendEscaped(_ source: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var runStart = 0
        var index = 0
        let count = source.count
        while index < count {
            let byte = source[index]
            let kind = byteClass[Int(byte)]
            if kind == 0 {
                index += 1
                continue
            }
            var length = 1
            if kind == 2 {
                length = forbiddenLength(source, at: index)
                if length == 0 {
                    index += 1
                    continue
                }
            }
            if runStart < index {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
            }
            switch byte {
            case 0x26: appendStatic("&amp;", to: &bytes)
            case 0x3C: appendStatic("&lt;", to: &bytes)
            case 0x3E: appendStatic("&gt;", to: &bytes)
            case 0x22: appendStatic("&quot;", to: &bytes)
            case 0x27: appendStatic("&#39;", to: &bytes)
            default: appendStatic("\u{FFFD}", to: &bytes)
            }
            index += length
            runStart = index
        }
        if runStart < count {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<count]))
        }
    }

    /// The length of the forbidden code point at `index`, or 0 when it is allowed after all.
    @usableFromInline static func forbiddenLength(_ source: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = source[index]
        let remaining = source.count - index
        switch byte {
        case 0xC2:
            // U+0080…U+009F: C2 80…C2 9F.
            return remaining >= 2 && source[index + 1] >= 0x80 && source[index + 1] <= 0x9F ? 2 : 0
        case 0xEF:
            // U+FDD0…U+FDEF (EF B7 90…AF) and U+FFFE, U+FFFF (EF BF BE, EF BF BF).
            guard remaining >= 3 else { return 0 }
            let second = source[index + 1]
            let third = source[index + 2]
            if second == 0xB7 && third >= 0x90 && third <= 0xAF { return 3 }
            if second == 0xBF && (third == 0xBE || third == 0xBF) { return 3 }
            return 0
        case 0xF0...0xF4:
            // U+nFFFE and U+nFFFF in planes 1–16: the last two bytes are BF BE or BF BF.
            guard remaining >= 4 else { return 0 }
            let isPlaneEnd = source[index + 1] & 0x0F == 0x0F && source[index + 2] == 0xBF && (source[index + 3] == 0xBE || source[index + 3] == 0xBF)
            return isPlaneEnd ? 4 : 0
        default:
            return 1
        }
    }

    @usableFromInline static func appendStatic(_ string: StaticString, to bytes: inout [UInt8]) {
        string.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `number` in decimal to any byte buffer (used by the JSON writer too).
    public static func appendDecimal(_ number: Int, to bytes: inout [UInt8]) {
        if number < 0 {
            bytes.append(UInt8(ascii: "-"))
            // Int.min has no positive twin: go through its magnitude.
            appendDecimal(number.magnitude, to: &bytes)
            return
        }
        appendDecimal(UInt(number), to: &bytes)
    }

    static func appendGrouped(_ number: UInt, to bytes: inout [UInt8]) {
        guard number >= 1000 else {
            appendDecimal(number, to: &bytes)
            return
        }
        appendGrouped(number / 1000, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        let rest = number % 1000
        if rest < 100 { bytes.append(UInt8(ascii: "0")) }
        if rest < 10 { bytes.append(UInt8(ascii: "0")) }
        appendDecimal(rest, to: &bytes)
    }

    @usableFromInline static func appendDecimal(_ number: UInt, to bytes: inout [UInt8]) {
        if number < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(number))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var value = number
            var position = 20
            while value > 0 {
                position -= 1
                digits[position] = UInt8(ascii: "0") &+ UInt8(value % 10)
                value /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[position..<20]))
        }
    }
}
