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
            where index + 2 < utf8.count && HexDigits.value(of: utf8[index + 1]) != nil && HexDigits.value(of: utf8[index + 2]) != nil:
                append(byte)
            case 0x21, 0x23, 0x24, 0x28...0x3B, 0x3D, 0x3F...0x5B, 0x5D, 0x5F, 0x61...0x7A, 0x7E:
                append(byte)
            default:
                // Space, controls, `"` `<` `>` `\` `^` `` ` `` `{` `|` `}`, a stray `%`, and every non-ASCII byte.
                buffer.write(reserving: 3) { HexDigits.writePercentEncoded(byte, into: $0) }
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

    /// Appends a URL path segment, percent-encoding everything but unreserved characters,
    /// so the result is safe both as a path segment and inside an attribute value.
    public mutating func pathSegment(_ segment: String) {
        let done: Void? = segment.utf8.withContiguousStorageIfAvailable { appendPathSegment($0) }
        if done == nil {
            var segment = segment
            segment.withUTF8 { appendPathSegment($0) }
        }
    }

    @inline(__always) mutating func appendPathSegment(_ source: UnsafeBufferPointer<UInt8>) {
        // Most row identifiers are a few digits: up to eight are tested and stored as one word.
        if let input = source.baseAddress, source.count > 0, source.count <= 8 {
            let word = ByteScan.gather(input, count: source.count)
            if ByteScan.nonDigits(word, count: source.count) == 0 {
                buffer.reserve(8)
                ByteScan.store(word, at: buffer.base.unsafelyUnwrapped + buffer.length)
                buffer.length &+= source.count
                return
            }
        }
        buffer.write(reserving: source.count &* 3) { PercentEncoding.writeSegment(source, into: $0) }
    }
}
