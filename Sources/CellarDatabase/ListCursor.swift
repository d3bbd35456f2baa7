import ByteWriters
import FoundationEssentials

/// Where a keyset page ends: the values of the last row's sort columns (its key last), the row's
/// position in the list, and which order they belong to. Written into `cursor=` as base64url, and
/// read back with every part checked: a cursor is data from a URL like any other.
///
/// It holds no secret and nothing of the process that wrote it, so any server over the same
/// database reads it the same way.
struct ListCursor: Equatable {
    /// The number of rows before the next page (the next page's first row, 0-based).
    var position: Int
    /// A hash of the order the cursor was written for; a cursor from another order is refused.
    var orderSignature: UInt64
    /// The last row's values of the order's columns, in the order's terms.
    var values: [DatabaseValue]

    /// The cursor as a URL-safe token; nil when it would be longer than ``longestToken`` (the last
    /// row's sort values are long texts or blobs), for a URL that long is refused by proxies.
    var token: String? {
        var text = "1.\(position).\(String(orderSignature, radix: 16))"
        for value in values {
            text += "."
            switch value {
            case .null: text += "n"
            case .integer(let integer): text += "i\(integer)"
            case .real(let real): text += "r" + String(real.bitPattern, radix: 16)
            case .text(let string): text += "t" + Self.escape(string)
            case .blob(let bytes): text += "b" + HexDigits.string(of: bytes)
            }
        }
        let token = Data(text.utf8).base64EncodedString()
            .replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
        return token.utf8.count <= Self.longestToken ? token : nil
    }

    init(position: Int, orderSignature: UInt64, values: [DatabaseValue]) {
        self.position = position
        self.orderSignature = orderSignature
        self.values = values
    }

    /// The longest token written or read: with the rest of a URL it stays under the 8 KiB request
    /// line that nginx and most proxies accept by default.
    static let longestToken = 4 * 1024

    /// The largest position a token may claim (as `offset` is clamped): the page's row numbers
    /// are added to it, and a forged `Int.max` would overflow.
    static let largestPosition = 1 << 40

    /// Reads a token; nil when it is not one this order wrote (malformed, or from another sort).
    init?(token: String, orderSignature expected: UInt64, valueCount: Int) {
        guard token.utf8.count <= Self.longestToken else { return nil }
        var base64 = token.replacing("-", with: "+").replacing("_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        // Split and read as bytes, not characters: a combining mark after a `.` or a tag letter
        // would join it into one character and hide it.
        let parts = Array(data).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        func number<Number: FixedWidthInteger>(_ bytes: ArraySlice<UInt8>, radix: Int = 10) -> Number? {
            Number(String(decoding: bytes, as: UTF8.self), radix: radix)
        }
        guard parts.count == 3 + valueCount, parts[0].elementsEqual("1".utf8), let position: Int = number(parts[1]), position >= 0,
            position <= Self.largestPosition, let signature: UInt64 = number(parts[2], radix: 16), signature == expected
        else { return nil }
        var values: [DatabaseValue] = []
        for part in parts.dropFirst(3) {
            guard let kind = part.first else { return nil }
            let rest = part.dropFirst()
            switch kind {
            case UInt8(ascii: "n") where rest.isEmpty: values.append(.null)
            case UInt8(ascii: "i"):
                guard let integer: Int64 = number(rest) else { return nil }
                values.append(.integer(integer))
            case UInt8(ascii: "r"):
                guard let bits: UInt64 = number(rest, radix: 16) else { return nil }
                values.append(.real(Double(bitPattern: bits)))
            case UInt8(ascii: "t"):
                guard let string = Self.unescape(rest) else { return nil }
                values.append(.text(string))
            case UInt8(ascii: "b"):
                guard rest.count % 2 == 0 else { return nil }
                var bytes: [UInt8] = []
                var index = rest.startIndex
                while index < rest.endIndex {
                    guard let byte: UInt8 = number(rest[index..<index + 2], radix: 16) else { return nil }
                    bytes.append(byte)
                    index += 2
                }
                values.append(.blob(bytes))
            default: return nil
            }
        }
        self.init(position: position, orderSignature: signature, values: values)
    }

    /// Text with `%` and `.` percent-encoded, byte by byte, so the parts split cleanly.
    private static func escape(_ string: String) -> String {
        var bytes: [UInt8] = []
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "%"): bytes += Array("%25".utf8)
            case UInt8(ascii: "."): bytes += Array("%2E".utf8)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func unescape(_ text: ArraySlice<UInt8>) -> String? {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            index += 1
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard index + 2 <= text.endIndex,
                let value = UInt8(String(decoding: text[index..<index + 2], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
            index += 2
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
