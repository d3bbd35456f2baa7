import FoundationEssentials

/// Base64 without padding, in the URL-safe alphabet (`-` and `_`), for cookies and tokens; and the
/// standard alphabet without padding, for password hashes (the PHC string format).
enum Base64URL {
    static func encoded(_ bytes: [UInt8]) -> String {
        String(
            Data(bytes).base64EncodedString().compactMap { character -> Character? in
                switch character {
                case "+": "-"
                case "/": "_"
                case "=": nil
                default: character
                }
            })
    }

    /// The bytes of `text`, or nil when it is not base64url.
    static func decoded(_ text: some StringProtocol) -> [UInt8]? {
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        if standard.contains("+") && text.contains("+") || standard.contains("/") && text.contains("/") { return nil }
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map { Array($0) }
    }

    /// Standard base64 without padding.
    static func standardEncoded(_ bytes: [UInt8]) -> String {
        String(Data(bytes).base64EncodedString().filter { $0 != "=" })
    }

    static func standardDecoded(_ text: some StringProtocol) -> [UInt8]? {
        var padded = String(text)
        while padded.utf8.count % 4 != 0 { padded += "=" }
        return Data(base64Encoded: padded).map { Array($0) }
    }
}
