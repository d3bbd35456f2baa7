/// Percent-encoding (RFC 3986): the unreserved bytes as they are, every other byte as `%XX`.
public enum PercentEncoding {
    /// RFC 3986 unreserved: `A–Z a–z 0–9 - . _ ~`. A bit test in one of two 64-bit constants, no
    /// table behind a lazy global: it runs for every byte of every row identifier.
    @inlinable @inline(__always) public static func isUnreserved(_ byte: UInt8) -> Bool {
        // Bits 45 `-`, 46 `.`, 48–57 `0–9` of the bytes below 64; bits 1–26 `A–Z`, 31 `_`,
        // 33–58 `a–z` and 62 `~` of the bytes from 64 to 127 (a test holds them to the definition).
        let low: UInt64 = 0x03FF_6000_0000_0000
        let high: UInt64 = 0x47FF_FFFE_87FF_FFFE
        if byte < 64 { return (low &>> UInt64(byte)) & 1 != 0 }
        return byte < 128 && (high &>> UInt64(byte &- 64)) & 1 != 0
    }

    /// Writes `source` with every byte but the unreserved ones percent-encoded at `output` (at most
    /// 3 bytes for 1); returns the bytes written. The result holds only `A–Z a–z 0–9 - . _ ~ %`:
    /// a path segment or a query value, safe in HTML, JSON and URLs alike.
    public static func writeSegment(_ source: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        // Row identifiers are mostly numbers: up to eight digits are tested as one word.
        if let input = source.baseAddress, source.count <= 8, source.count > 0 {
            let word = ByteScan.gather(input, count: source.count)
            if ByteScan.nonDigits(word, count: source.count) == 0 {
                ByteScan.scatter(word, count: source.count, to: output)
                return source.count
            }
        }
        var out = output
        for byte in source {
            if isUnreserved(byte) {
                out.pointee = byte
                out += 1
            } else {
                out += HexDigits.writePercentEncoded(byte, into: out)
            }
        }
        return out - output
    }

    /// `text` with every byte `isKept` refuses percent-encoded; `text` itself when it keeps them all.
    public static func encoded(_ text: String, keeping isKept: (UInt8) -> Bool) -> String {
        let utf8 = text.utf8
        guard !utf8.allSatisfy(isKept) else { return text }
        return String(unsafeUninitializedCapacity: utf8.count * 3) { out in
            var count = 0
            for byte in utf8 {
                if isKept(byte) {
                    out[count] = byte
                    count += 1
                } else {
                    count += HexDigits.writePercentEncoded(byte, into: out.baseAddress.unsafelyUnwrapped + count)
                }
            }
            return count
        }
    }

    /// `bytes` with every `%XX` decoded, as libmicrohttpd decodes a path: a malformed escape stays as
    /// it is, `+` is not a space, and `%00` becomes a NUL character (for the caller to refuse).
    public static func decoded(_ bytes: some Collection<UInt8>) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            let first = bytes.index(after: index)
            if byte == UInt8(ascii: "%"), first != bytes.endIndex, bytes.index(after: first) != bytes.endIndex,
                let high = HexDigits.value(of: bytes[first]), let low = HexDigits.value(of: bytes[bytes.index(after: first)])
            {
                decoded.append(high << 4 | low)
                index = bytes.index(first, offsetBy: 2)
            } else {
                decoded.append(byte)
                index = first
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
