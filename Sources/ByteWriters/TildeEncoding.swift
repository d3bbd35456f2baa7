/// Datasette's tilde-encoding of a path segment (a row's key in `/{table}/{key}/-/update`): each
/// byte outside `A–Z a–z 0–9 _ -` written as `~XX`, so that a `/`, `,`, `.` or `~` inside a key
/// survives the path (`a/b` is `a~2Fb`). Cellar's write API decodes it for tables and for an
/// app's own lists alike.
public enum TildeEncoding {
    /// `text` with each `~XX` (two hex digits) made the byte it stands for; a `~` not followed by
    /// two hex digits stays as it is, and so does `+` (Cellar's own links percent-encode a space).
    public static func decoded(_ text: some StringProtocol) -> String {
        guard text.contains("~") else { return String(text) }
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "~"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// `text` tilde-encoded as Datasette writes a key: `A–Z a–z 0–9 _ -` as they are, every other
    /// byte `~XX` (upper-case hex).
    public static func encoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "-"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded.unicodeScalars.append("~")
                encoded.unicodeScalars.append(digits[Int(byte >> 4)])
                encoded.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return encoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
