extension JSONReader {
    /// Reads a string: every escape of RFC 8259 §7 (a surrogate pair's two `\u` escapes as one
    /// character), no control character unescaped, UTF-8 only.
    public mutating func readString() throws(Failure) -> String {
        try expect(UInt8(ascii: "\""))
        return try readStringBody()
    }

    /// Reads a string's characters and its closing quote, the opening one read.
    ///
    /// Most strings have no escape: their bytes become the string as they are, checked as UTF-8
    /// only when one is not ASCII.
    mutating func readStringBody() throws(Failure) -> String {
        let start = index
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try string(from: bytes[start..<index], ascii: ascii, offset: start - 1)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") {
                return try readEscapedStringBody(from: start)
            }
            guard byte >= 0x20 else { throw failure(.syntax) }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        throw failure(.syntax)
    }

    /// The rest of a string from its first escape: its bytes copied, each escape written as the
    /// UTF-8 of its character.
    private mutating func readEscapedStringBody(from start: Int) throws(Failure) -> String {
        var text = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try string(from: text[...], ascii: false, offset: start - 1)
            case UInt8(ascii: "\\"):
                index += 1
                try readEscape(into: &text)
            case 0..<0x20:
                throw failure(.syntax)
            default:
                text.append(byte)
                index += 1
            }
        }
        throw failure(.syntax)
    }

    /// Reads one escape after its backslash, appending what it stands for.
    private mutating func readEscape(into text: inout [UInt8]) throws(Failure) {
        guard index < bytes.count else { throw failure(.syntax) }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(letter)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            let escapeOffset = index - 2
            var scalar = UInt32(try readHexQuad())
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate: a low one must follow, as its own escape.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw Failure(reason: .notUTF8, offset: escapeOffset)
                }
                index += 2
                let low = UInt32(try readHexQuad())
                guard (0xDC00...0xDFFF).contains(low) else { throw Failure(reason: .notUTF8, offset: escapeOffset) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let character = Unicode.Scalar(scalar) else { throw Failure(reason: .notUTF8, offset: escapeOffset) }
            UTF8.encode(character) { text.append($0) }
        default:
            index -= 1
            throw failure(.syntax)
        }
    }

    /// Reads the four hex digits of a `\u` escape.
    private mutating func readHexQuad() throws(Failure) -> UInt16 {
        guard index + 4 <= bytes.count else { throw failure(.syntax) }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure(.syntax)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// The string of UTF-8 `bytes`, refused where they are not UTF-8 (at `offset`, its opening quote).
    private func string(from bytes: ArraySlice<UInt8>, ascii: Bool, offset: Int) throws(Failure) -> String {
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Failure(reason: .notUTF8, offset: offset) }
        return text
    }
}
