extension HTMLWriter {
    /// Writes ` name="url"` when `url` cannot run script, and nothing at all when it could.
    ///
    /// Text can be escaped, but a URL attribute has a second meaning: `javascript:`, `data:` and
    /// `vbscript:` links run code however well their characters are escaped. So only `http:`,
    /// `https:` and `mailto:` URLs and relative references are written, with characters a URL
    /// may not hold percent-encoded. Anything else leaves the element without the attribute
    /// (a link without `href` is inert). Returns whether it wrote the attribute.
    @discardableResult
    public mutating func urlAttribute(_ name: StaticString, _ url: String) -> Bool {
        guard HTMLWriter.isSafeURL(url) else { return false }
        openAttribute(name)
        let utf8 = Array(url.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "'"): raw("&#39;")
            case UInt8(ascii: "%")
            where index + 2 < utf8.count && HTMLWriter.isHexDigit(utf8[index + 1]) && HTMLWriter.isHexDigit(utf8[index + 2]):
                append(byte)
            case 0x21, 0x23, 0x24, 0x28...0x3B, 0x3D, 0x3F...0x5B, 0x5D, 0x5F, 0x61...0x7A, 0x7E:
                append(byte)
            default:
                // Space, controls, `"` `<` `>` `\` `^` `` ` `` `{` `|` `}`, a stray `%`, and every non-ASCII byte.
                append(UInt8(ascii: "%"))
                append(HTMLWriter.hexDigit(byte >> 4))
                append(HTMLWriter.hexDigit(byte & 0x0F))
            }
            index += 1
        }
        append(UInt8(ascii: "\""))
        return true
    }

    /// Whether a link target is `http:`, `https:`, `mailto:` or relative — after dropping what
    /// browsers drop (leading spaces and controls, tabs and newlines anywhere), case-insensitively.
    public static func isSafeURL(_ url: String) -> Bool {
        var scheme: [UInt8] = []
        var sawStart = false
        for byte in url.utf8 {
            // Browsers strip leading C0 controls and spaces, and remove tabs and newlines anywhere.
            if !sawStart && byte <= 0x20 { continue }
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            sawStart = true
            switch byte {
            case UInt8(ascii: ":"):
                let name = String(decoding: scheme, as: UTF8.self).lowercased()
                return name == "http" || name == "https" || name == "mailto"
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                // No scheme before the path, query or fragment: a relative reference.
                return true
            default:
                // Anything outside ASCII letters, digits, `+ - .` cannot be part of a scheme, so
                // what follows is a path — unless a browser would ignore it (zero-width characters
                // and other invisibles are kept here, and make the URL unsafe if a `:` follows).
                scheme.append(byte)
            }
        }
        return true
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    /// Appends a URL path segment, percent-encoding everything but unreserved characters,
    /// so the result is safe both as a path segment and inside an attribute value.
    public mutating func pathSegment(_ segment: String) {
        // Most row identifiers are a few digits: read from the small string's own bits, they need
        // no copy to the stack and no loop.
        if let digits = Self.smallDigits(segment) {
            buffer.write(reserving: 8) { out in
                UnsafeMutableRawPointer(out).storeBytes(of: digits.word, as: UInt64.self)
                return digits.count
            }
            return
        }
        let done: Void? = segment.utf8.withContiguousStorageIfAvailable { source in
            buffer.write(reserving: source.count &* 3) { HTMLWriter.writePathSegment(source, into: $0) }
        }
        if done == nil {
            var segment = segment
            segment.withUTF8 { source in buffer.write(reserving: source.count &* 3) { HTMLWriter.writePathSegment(source, into: $0) } }
        }
    }

    /// `string`'s bytes as one word and their count when it is 1 to 8 ASCII digits stored as a small
    /// string (``ByteScan/smallASCII(_:)``); nil otherwise.
    @inline(__always) static func smallDigits(_ string: String) -> (word: UInt64, count: Int)? {
        guard let small = ByteScan.smallASCII(string), small.count <= 8, ByteScan.nonDigits(small.low, count: small.count) == 0 else { return nil }
        return (small.low, small.count)
    }

    /// Writes `source` percent-encoded as a path segment at `output` (at most 3 bytes for 1);
    /// returns the bytes written. The result holds only `A–Z a–z 0–9 - . _ ~ %`, safe in HTML,
    /// JSON and URLs alike.
    public static func writePathSegment(_ source: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        // Row identifiers are mostly numbers: up to eight digits are tested as one word.
        if let input = source.baseAddress, source.count <= 8, source.count > 0 {
            let word = ByteScan.gather(input, count: source.count)
            if ByteScan.nonDigits(word, count: source.count) == 0 {
                ByteScan.scatter(word, count: source.count, to: output)
                return source.count
            }
        }
        var out = output
        // Digits and unreserved ASCII are most identifiers: copy them without touching a table.
        for byte in source {
            if isUnreserved(byte) {
                out.pointee = byte
                out += 1
            } else {
                out[0] = UInt8(ascii: "%")
                out[1] = hexDigit(byte >> 4)
                out[2] = hexDigit(byte & 0x0F)
                out += 3
            }
        }
        return out - output
    }

    /// The uppercase hexadecimal digit for a value below 16.
    @inline(__always) static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "A") &+ (value &- 10)
    }

    /// RFC 3986 unreserved: `A–Z a–z 0–9 - . _ ~`. A bit test in one of two 64-bit constants, no
    /// table behind a lazy global: it runs for every byte of every row identifier.
    @inline(__always) static func isUnreserved(_ byte: UInt8) -> Bool {
        // Bits 45 `-`, 46 `.`, 48–57 `0–9` of the bytes below 64; bits 1–26 `A–Z`, 31 `_`,
        // 33–58 `a–z` and 62 `~` of the bytes from 64 to 127 (a test holds them to the definition).
        let low: UInt64 = 0x03FF_6000_0000_0000
        let high: UInt64 = 0x47FF_FFFE_87FF_FFFE
        if byte < 64 { return (low &>> UInt64(byte)) & 1 != 0 }
        return byte < 128 && (high &>> UInt64(byte &- 64)) & 1 != 0
    }
}
