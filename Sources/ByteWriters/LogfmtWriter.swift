/// Appends logfmt (`ts=… level=info msg="GET /people 200" bytes=24204`) to a byte buffer.
///
/// A value is written bare when it is plain, and otherwise quoted with `\"`, `\\`, `\n`, `\r`,
/// `\t` and `\u{…}` escapes: quoted when it is empty or holds a space, a control, `"`, `=`, `\`
/// or DEL. Every byte of a multi-byte character passes through as it is, except the characters
/// the JSON writer escapes too (``UnicodeControls``: U+2028, U+2029 and the bidirectional
/// controls), written `\u{202e}`, so a value cannot end a line or reorder the rest of it.
public struct LogfmtWriter: ByteBufferWriter, ~Copyable, Sendable {
    public var buffer: ByteBuffer

    public init(buffer: consuming ByteBuffer) {
        self.buffer = buffer
    }

    /// Appends syntax written in the source code (` level=`, a key).
    @inlinable @inline(__always) public mutating func raw(_ syntax: StaticString) {
        buffer.append(UnsafeRawBufferPointer(start: syntax.utf8Start, count: syntax.utf8CodeUnitCount))
    }

    /// Appends text that is not escaped nor quoted: a key or a level the program chose. Only for
    /// text the program made itself and trusts.
    public mutating func unsafeRaw(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends bytes that are not escaped nor quoted (digits, a timestamp): see ``unsafeRaw(_:)``.
    public mutating func unsafeRaw(bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(UnsafeRawBufferPointer(bytes))
    }

    /// Appends an integer in decimal.
    public mutating func number(_ value: Int) {
        buffer.write(reserving: DecimalDigits.maximumCount) { DecimalDigits.write(value, into: $0) }
    }

    /// Appends a value: bare when it is plain, quoted and escaped otherwise.
    public mutating func value(_ value: String) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { self.value(utf8: $0) }
        if done == nil {
            var value = value
            value.withUTF8 { self.value(utf8: $0) }
        }
    }

    /// ``value(_:)`` for a value given as UTF-8 bytes.
    public mutating func value(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        // One pass: a byte that needs quoting, or the start of a character that is escaped.
        let plain = !bytes.isEmpty && !bytes.indices.contains { Self.needsQuotes(bytes[$0]) || UnicodeControls.escapedUnit(in: bytes, at: $0) != nil }
        if plain {
            unsafeRaw(bytes: bytes)
            return
        }
        raw("\"")
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let unit = UnicodeControls.escapedUnit(in: bytes, at: index)
            guard unit != nil || Self.needsEscape(byte) else {
                index += 1
                continue
            }
            unsafeRaw(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            default:
                // `\u{1b}`, `\u{7f}`, `\u{202e}`: the code point's significant digits.
                let code = UInt64(unit ?? UInt16(byte))
                let digits = max(1, (64 - code.leadingZeroBitCount + 3) / 4)
                raw("\\u{")
                buffer.write(reserving: digits) { out in
                    HexDigits.write(code, count: digits, into: out)
                    return digits
                }
                raw("}")
            }
            index += unit == nil ? 1 : 3
            runStart = index
        }
        unsafeRaw(bytes: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        raw("\"")
    }

    /// A byte a bare value cannot hold: space, controls, `"`, `=`, `\`, DEL.
    @inline(__always) static func needsQuotes(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == UInt8(ascii: "=") || needsEscape(byte)
    }

    /// A byte a quoted value escapes: controls, `"`, `\`, DEL.
    @inline(__always) static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    /// `text` as a logfmt value (bare or quoted).
    public static func value(_ text: String) -> String {
        var writer = LogfmtWriter()
        writer.value(text)
        return String(decoding: writer.takeBytes(), as: UTF8.self)
    }
}
