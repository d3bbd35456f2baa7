import TableKit

/// Appends JSON to a byte buffer: strings escaped with the same rigour as ``HTMLWriter`` escapes HTML.
///
/// Besides what JSON requires (`"`, `\` and control characters), it escapes `<`, `>`, `&`, `'`,
/// U+2028 and U+2029 as `\uXXXX`, so a document can never close a `<script>` or be sniffed as
/// markup. No Foundation, no intermediate `String`s.
public struct JSONWriter: Sendable {
    public var bytes: [UInt8]

    public init(bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    /// Appends JSON syntax written in the source code (`{`, `"key":`, `null`).
    @inlinable public mutating func raw(_ syntax: StaticString) {
        syntax.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a string value, quoted and escaped.
    public mutating func string(_ value: String) {
        var value = value
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8 { JSONWriter.appendEscaped($0, to: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `"key":` for a key known at compile time (no escaping needed).
    @inlinable public mutating func key(_ key: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends `"key":` for a key from data.
    public mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func number(_ value: Int) {
        HTMLWriter.appendDecimal(value, to: &bytes)
    }

    public mutating func number(_ value: UInt64) {
        if value <= UInt64(Int.max) {
            number(Int(value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    /// Appends a floating-point number; NaN and infinities, which JSON cannot hold, become `null`.
    public mutating func number(_ value: Double) {
        guard value.isFinite else {
            raw("null")
            return
        }
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            number(Int(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    public mutating func null() { raw("null") }

    /// Appends `value` or `null`.
    public mutating func string(orNull value: String?) {
        if let value { string(value) } else { null() }
    }

    static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    static func appendEscaped(_ source: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var runStart = 0
        var index = 0
        let count = source.count
        while index < count {
            let byte = source[index]
            let needsEscape: Bool
            var length = 1
            switch byte {
            case 0x00..<0x20, UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"),
                UInt8(ascii: "'"):
                needsEscape = true
            case 0xE2:
                // U+2028 and U+2029 (E2 80 A8 / E2 80 A9) end lines in JavaScript.
                needsEscape = index + 2 < count && source[index + 1] == 0x80 && (source[index + 2] == 0xA8 || source[index + 2] == 0xA9)
                if needsEscape { length = 3 }
            default:
                needsEscape = false
            }
            guard needsEscape else {
                index += 1
                continue
            }
            if runStart < index {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
            }
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0xE2: appendUnicodeEscape(source[index + 2] == 0xA8 ? 0x2028 : 0x2029, to: &bytes)
            default: appendUnicodeEscape(UInt16(byte), to: &bytes)
            }
            index += length
            runStart = index
        }
        if runStart < count {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<count]))
        }
    }

    static func appendUnicodeEscape(_ unit: UInt16, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: [
            0x5C, UInt8(ascii: "u"), hex[Int(unit >> 12)], hex[Int((unit >> 8) & 0xF)], hex[Int((unit >> 4) & 0xF)], hex[Int(unit & 0xF)],
        ])
    }
}
