import ByteWriters

/// A row's JSON item read back as fields, for the CSV of a list whose rows are JSON items (an
/// app's list): each top-level member of an object is a field, named by its key; a string is its
/// text, `null` nothing, a number or `true` as written, a nested object or array its JSON text.
/// An item that is not an object is one field, `item`.
///
/// It reads what the list's own JSON writes (``JSONItemWriting`` or `Encodable`), so the CSV's
/// columns are the JSON's fields, field for field.
struct JSONItemFields {
    /// A member's value: where its bytes are in the item, and whether they are a JSON string.
    struct Value {
        let range: Range<Int>
        let isString: Bool
        let isNull: Bool
    }

    /// Each field's name and value, in the item's order.
    private(set) var members: [(name: String, value: Value)] = []

    /// Reads the members of `bytes`, one JSON value; a value it cannot read is one `item` field of
    /// all its bytes.
    init(_ bytes: UnsafeRawBufferPointer) {
        var reader = Reader(bytes: bytes)
        reader.skipSpaces()
        guard reader.peek == UInt8(ascii: "{") else {
            members = [("item", reader.wholeValue())]
            return
        }
        reader.index += 1
        reader.skipSpaces()
        if reader.peek == UInt8(ascii: "}") { return }
        while reader.index < bytes.count {
            reader.skipSpaces()
            guard reader.peek == UInt8(ascii: "\""), let keyEnd = reader.endOfValue() else { break }
            let name = Self.text(ofString: bytes, reader.index..<keyEnd)
            reader.index = keyEnd
            reader.skipSpaces()
            guard reader.peek == UInt8(ascii: ":") else { break }
            reader.index += 1
            reader.skipSpaces()
            let start = reader.index
            guard let end = reader.endOfValue() else { break }
            members.append((name, Value(range: start..<end, isString: bytes[start] == UInt8(ascii: "\""), isNull: bytes[start] == UInt8(ascii: "n"))))
            reader.index = end
            reader.skipSpaces()
            guard reader.peek == UInt8(ascii: ",") else { break }
            reader.index += 1
        }
    }

    /// Appends a value as a CSV field: a string's text, a number or literal as written, nested
    /// JSON as its text, `null` as an empty field.
    static func appendField(_ value: Value, of bytes: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        guard !value.isNull else { return }
        if value.isString {
            CSVFields.appendText(Array(text(ofString: bytes, value.range).utf8), to: &buffer)
        } else {
            CSVFields.appendText(UnsafeRawBufferPointer(rebasing: bytes[value.range]), to: &buffer)
        }
    }

    /// The text of the JSON string at `range` (its quotes included), its escapes undone.
    static func text(ofString bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
        guard bytes[inner].contains(UInt8(ascii: "\\")) else {
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[inner]), as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
            utf8.removeAll(keepingCapacity: true)
        }
        var index = inner.lowerBound
        var pendingHighSurrogate: UInt32?
        while index < inner.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < inner.upperBound else {
                utf8.append(byte)
                index += 1
                continue
            }
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "n"): utf8.append(10)
            case UInt8(ascii: "r"): utf8.append(13)
            case UInt8(ascii: "t"): utf8.append(9)
            case UInt8(ascii: "b"): utf8.append(8)
            case UInt8(ascii: "f"): utf8.append(12)
            case UInt8(ascii: "u"):
                guard index + 4 <= inner.upperBound,
                    let code = UInt32(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<index + 4]), as: UTF8.self), radix: 16)
                else { continue }
                index += 4
                flush()
                if (0xD800..<0xDC00).contains(code) {
                    pendingHighSurrogate = code
                    continue
                }
                if (0xDC00..<0xE000).contains(code), let high = pendingHighSurrogate {
                    scalars.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) ?? "\u{FFFD}")
                } else {
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                }
            default: utf8.append(escaped)
            }
            pendingHighSurrogate = nil
        }
        flush()
        return String(scalars)
    }

    /// A cursor over one JSON value's bytes.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpaces() {
            while let byte = peek, byte == 32 || byte == 9 || byte == 10 || byte == 13 { index += 1 }
        }

        /// All the bytes, trailing spaces aside, as one value.
        func wholeValue() -> Value {
            var end = bytes.count
            while end > index, [32, 9, 10, 13].contains(bytes[end - 1]) { end -= 1 }
            let start = min(index, end)
            let isString = end - start >= 2 && bytes[start] == UInt8(ascii: "\"")
            return Value(range: start..<end, isString: isString, isNull: start == end || bytes[start] == UInt8(ascii: "n"))
        }

        /// Where the value starting at ``index`` ends (a string's closing quote included, an
        /// object or array's closing bracket), or nil when the bytes end first.
        func endOfValue() -> Int? {
            var position = index
            var depth = 0
            var inString = false
            while position < bytes.count {
                let byte = bytes[position]
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        position += 1
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                        if depth == 0 { return position + 1 }
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        if depth == 0 { return position }
                        depth -= 1
                        if depth == 0 { return position + 1 }
                    case UInt8(ascii: ","), 32, 9, 10, 13:
                        if depth == 0 { return position }
                    default: break
                    }
                }
                position += 1
            }
            return depth == 0 && !inString && position > index ? position : nil
        }
    }
}
