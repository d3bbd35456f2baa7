internal import CByteScan

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
public struct HTMLWriter: ByteBufferWriter, ~Copyable, Sendable {
    public var buffer: ByteBuffer

    public init(buffer: consuming ByteBuffer) {
        self.buffer = buffer
    }

    @inlinable mutating func append(_ byte: UInt8) { buffer.append(byte) }

    // MARK: Markup (trusted)

    /// Appends markup written in the source code. A `StaticString` cannot carry data from a request.
    @inlinable @inline(__always) public mutating func raw(_ markup: StaticString) {
        append(UnsafeRawBufferPointer(start: markup.utf8Start, count: markup.utf8CodeUnitCount))
    }

    /// Appends markup that is not escaped. Only for HTML the program made itself and trusts.
    public mutating func unsafeRaw(_ markup: String) {
        var markup = markup
        markup.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends bytes that are not escaped. Only for HTML the program made itself and trusts.
    public mutating func unsafeRaw<Bytes: Sequence>(bytes markup: Bytes) where Bytes.Element == UInt8 {
        let done: Void? = markup.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if done == nil {
            for byte in markup { append(byte) }
        }
    }

    // MARK: Text (escaped)

    /// Appends text, escaped for an element's content or an attribute value.
    @inlinable public mutating func text(_ text: String) {
        // Native and small strings lend their UTF-8 without a copy of the string value.
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendText($0) }
        if done == nil {
            var text = text
            text.withUTF8 { appendEscaped($0) }
        }
    }

    /// Appends text given as UTF-8 bytes (valid UTF-8, such as a database's text), escaped.
    public mutating func text(utf8 text: UnsafeBufferPointer<UInt8>) {
        appendEscaped(text)
    }

    /// Appends text from a substring, escaped.
    public mutating func text(_ text: Substring) {
        var text = text
        text.withUTF8 { appendEscaped($0) }
    }

    /// Appends text for use inside an attribute value (the same escaping as ``text(_:)-(String)``).
    @inlinable public mutating func attributeText(_ value: String) { text(value) }

    /// Appends ` name="value"` with the value escaped.
    @inlinable public mutating func attribute(_ name: StaticString, _ value: String) {
        openAttribute(name)
        text(value)
        append(UInt8(ascii: "\""))
    }

    /// Appends ` name="value"` with the value, given as UTF-8 bytes, escaped.
    public mutating func attribute(_ name: StaticString, utf8 value: UnsafeBufferPointer<UInt8>) {
        openAttribute(name)
        appendEscaped(value)
        append(UInt8(ascii: "\""))
    }

    /// Appends ` name="`, the start of every attribute.
    @inlinable mutating func openAttribute(_ name: StaticString) {
        append(UInt8(ascii: " "))
        raw(name)
        raw("=\"")
    }

    /// Appends `source` escaped: a short text with nothing to escape (a name, a role, a link's
    /// base) is copied with a word or two here, without a call; anything else goes to the escaper.
    @inlinable @inline(__always) mutating func appendText(_ source: UnsafeBufferPointer<UInt8>) {
        if let input = source.baseAddress, source.count <= 16 {
            buffer.reserve(16)
            let out = buffer.base.unsafelyUnwrapped + buffer.length
            if ByteScan.copyIfShortAndCleanHTML(input, count: source.count, to: out) {
                buffer.length &+= source.count
                return
            }
        }
        appendEscaped(source)
    }

    /// Appends `source` escaped (see ``escape(_:into:)``), written in one pass.
    @usableFromInline mutating func appendEscaped(_ source: UnsafeBufferPointer<UInt8>) {
        // An entity is at most 6 bytes for 1, U+FFFD 3 bytes for 1; the block stores may write
        // up to 16 bytes past the end.
        buffer.write(reserving: source.count &* 6 &+ 16) { HTMLWriter.escape(source, into: $0) }
    }

    // MARK: Elements

    /// Writes `<tag class="…">`, the body, and `</tag>`.
    public mutating func element(
        _ tag: StaticString, class className: StaticString? = nil, _ body: (inout HTMLWriter) throws -> Void
    ) rethrows {
        append(UInt8(ascii: "<"))
        raw(tag)
        if let className {
            raw(" class=\"")
            raw(className)
            append(UInt8(ascii: "\""))
        }
        append(UInt8(ascii: ">"))
        try body(&self)
        raw("</")
        raw(tag)
        append(UInt8(ascii: ">"))
    }

    /// Writes `<tag class="…">text</tag>` with the text escaped.
    public mutating func element(_ tag: StaticString, class className: StaticString? = nil, text content: String) {
        element(tag, class: className) { $0.text(content) }
    }

    // MARK: Escaping

    /// Whether a byte is written as it is, without a closer look: everything but `& < > " '`,
    /// controls other than tab, newline, form feed and carriage return, DEL, and the lead bytes
    /// of C1 controls (0xC2) and of noncharacters (0xEF, 0xF0–0xF4). Comparisons the compiler
    /// turns into bit tests: no table behind a lazy global, whose `swift_once` would run per text.
    @inlinable @inline(__always) static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x26, 0x3C, 0x3E, 0x22, 0x27, 0x7F, 0xC2, 0xEF, 0xF0...0xF4: false
        case 0x00..<0x20: byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        default: true
        }
    }

    /// Writes `source` to `output` with `& < > " '` replaced by entities; returns the bytes written
    /// (at most 6 per input byte). `output` must have room for 6 bytes per input byte and 16 more:
    /// it is written sixteen bytes at a time.
    ///
    /// Code points HTML forbids in a document — controls other than tab, newline, form feed and
    /// carriage return, C1 controls and noncharacters — become U+FFFD, so that what is written
    /// always parses back to the same text a validator accepts.
    @usableFromInline static func escape(_ source: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        guard let input = source.baseAddress else { return 0 }
        let count = source.count
        if ByteScan.copyIfShortAndClean(input, count: count, to: output, flags: .html) { return count }
        var out = output
        var index = 0
        while index < count {
            // Sixteen bytes at a time, entities included, up to a byte that needs a closer look…
            out = cellar_escape_html(input, count, &index, out)
            guard index < count else { break }
            // …then that byte: a run of non-ASCII text (plain after all) or a forbidden code
            // point (the controls HTML allows are written by the C loop, as themselves).
            let byte = input[index]
            if isPlain(byte) {
                out.pointee = byte
                out += 1
                index &+= 1
                while index < count && input[index] >= 0x80 && isPlain(input[index]) {
                    out.pointee = input[index]
                    out += 1
                    index &+= 1
                }
                continue
            }
            let length = forbiddenLength(source, at: index)
            if length == 0 {
                out.pointee = byte
                out += 1
                index &+= 1
            } else {
                // U+FFFD, EF BF BD.
                out[0] = 0xEF
                out[1] = 0xBF
                out[2] = 0xBD
                out += 3
                index &+= length
            }
        }
        return out - output
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
}
