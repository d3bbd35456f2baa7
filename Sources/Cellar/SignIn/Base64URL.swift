/// Base64 without padding, in the URL-safe alphabet (`-` and `_`), for cookies and tokens; and the
/// standard alphabet without padding, for password hashes (the PHC string format). Byte loops over
/// UTF-8, not Character-wise string work: a session is decoded on every request (BENCHMARKS.md,
/// "Sign-in's crypto", says what the difference was).
enum Base64URL {
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encoded(_ bytes: [UInt8]) -> String { encode(bytes, alphabet: urlAlphabet) }

    /// The bytes of `text`, or nil when it is not base64url (no padding).
    static func decoded(_ text: some StringProtocol) -> [UInt8]? { decode(text.utf8, url: true) }

    /// Standard base64 without padding.
    static func standardEncoded(_ bytes: [UInt8]) -> String { encode(bytes, alphabet: standardAlphabet) }

    static func standardDecoded(_ text: some StringProtocol) -> [UInt8]? { decode(text.utf8, url: false) }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            if remaining > 1 { out.append(alphabet[Int(group >> 6 & 63)]) }
            if remaining > 2 { out.append(alphabet[Int(group & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func value(of byte: UInt8, url: Bool) -> UInt32? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "-") where url, UInt8(ascii: "+") where !url: 62
        case UInt8(ascii: "_") where url, UInt8(ascii: "/") where !url: 63
        default: nil
        }
    }

    private static func decode(_ text: some Collection<UInt8>, url: Bool) -> [UInt8]? {
        // A length of 1 more than a multiple of 4 encodes no whole byte.
        guard text.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var group: UInt32 = 0
        var count = 0
        for byte in text {
            guard let value = value(of: byte, url: url) else { return nil }
            group = group << 6 | value
            count += 1
            if count == 4 {
                out.append(UInt8(truncatingIfNeeded: group >> 16))
                out.append(UInt8(truncatingIfNeeded: group >> 8))
                out.append(UInt8(truncatingIfNeeded: group))
                group = 0
                count = 0
            }
        }
        if count == 2 {
            out.append(UInt8(truncatingIfNeeded: group >> 4))
        } else if count == 3 {
            out.append(UInt8(truncatingIfNeeded: group >> 10))
            out.append(UInt8(truncatingIfNeeded: group >> 2))
        }
        return out
    }
}
