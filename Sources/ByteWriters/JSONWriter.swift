internal import CByteScan

/// Appends JSON to a byte buffer: strings escaped with the same rigour as ``HTMLWriter`` escapes HTML.
///
/// Besides what JSON requires (`"`, `\` and control characters), it escapes `<`, `>`, `&`, `'`,
/// U+2028 and U+2029 as `\uXXXX`, so a document can never close a `<script>` or be sniffed as
/// markup, and the bidirectional controls U+202A–U+202E and U+2066–U+2069, which make text show
/// in another order than it is stored (`\u202E` reversing the rest of a log line or of a field
/// in a JSON viewer). The decoded strings are the same. No Foundation, no intermediate `String`s.
public struct JSONWriter: ByteBufferWriter, ~Copyable, Sendable {
    public var buffer: ByteBuffer

    public init(buffer: consuming ByteBuffer) {
        self.buffer = buffer
    }

    /// Appends JSON syntax written in the source code (`{`, `"key":`, `null`).
    @inlinable @inline(__always) public mutating func raw(_ syntax: StaticString) {
        append(UnsafeRawBufferPointer(start: syntax.utf8Start, count: syntax.utf8CodeUnitCount))
    }

    /// Appends a string value, quoted and escaped.
    public mutating func string(_ value: String) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { quoted($0) }
        if done == nil {
            var value = value
            value.withUTF8 { quoted($0) }
        }
    }

    /// Appends syntax written in the source code and then a string value, quoted and escaped, in
    /// one step: `json.string(after: ",\"name\":", name)` writes `,"name":"…"` with one
    /// reservation instead of two appends.
    public mutating func string(after syntax: StaticString, _ value: String) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { quoted($0, after: syntax) }
        if done == nil {
            var value = value
            value.withUTF8 { quoted($0, after: syntax) }
        }
    }

    private mutating func quoted(_ source: UnsafeBufferPointer<UInt8>, after syntax: StaticString) {
        let prefix = syntax.utf8CodeUnitCount
        buffer.write(reserving: prefix &+ source.count &* 6 &+ 18) { out in
            // A member's syntax (`,"bio":`, 1 to 16 bytes) in overlapping moves, not a memcpy call.
            ByteBuffer.copy(syntax.utf8Start, count: prefix, to: out)
            return prefix &+ JSONWriter.writeQuoted(source, into: out + prefix)
        }
    }

    /// Appends `identifier` percent-encoded as a path segment and a closing quote: the end of a
    /// row link whose start (`"base/`) was written before.
    package mutating func pathSegmentClosingString(_ identifier: String) {
        let done: Void? = identifier.utf8.withContiguousStorageIfAvailable { segmentAndQuote($0) }
        if done == nil {
            var identifier = identifier
            identifier.withUTF8 { segmentAndQuote($0) }
        }
    }

    private mutating func segmentAndQuote(_ source: UnsafeBufferPointer<UInt8>) {
        buffer.write(reserving: source.count &* 3 &+ 1) { out in
            let written = PercentEncoding.writeSegment(source, into: out)
            out[written] = UInt8(ascii: "\"")
            return written &+ 1
        }
    }

    /// Appends a string value given as UTF-8 bytes (valid UTF-8, as a `String`'s are), quoted and escaped.
    public mutating func string(utf8 source: UnsafeBufferPointer<UInt8>) { quoted(source) }

    private mutating func quoted(_ source: UnsafeBufferPointer<UInt8>) {
        // `\uXXXX` is 6 bytes for 1 and U+2028 6 for 3, plus two quotes; the block stores may
        // write 16 bytes past the escaped text.
        buffer.write(reserving: source.count &* 6 &+ 18) { JSONWriter.writeQuoted(source, into: $0) }
    }

    /// Appends JSON text that is not escaped: a number's digits, a key escaped once and kept. Only
    /// for text the program made itself and trusts.
    public mutating func unsafeRaw(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends JSON bytes that are not escaped (see ``unsafeRaw(_:)``).
    public mutating func unsafeRaw(bytes: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(bytes))
    }

    /// Appends `"key":` for a key known at compile time (no escaping needed).
    @inlinable public mutating func key(_ key: StaticString) {
        let count = key.utf8CodeUnitCount
        buffer.write(reserving: count &+ 3) { out in
            out[0] = UInt8(ascii: "\"")
            (out + 1).update(from: key.utf8Start, count: count)
            out[count &+ 1] = UInt8(ascii: "\"")
            out[count &+ 2] = UInt8(ascii: ":")
            return count &+ 3
        }
    }

    /// Appends `"key":` for a key from data.
    public mutating func key(_ key: String) {
        string(key)
        raw(":")
    }

    public mutating func number(_ value: Int) {
        buffer.write(reserving: DecimalDigits.maximumCount) { DecimalDigits.write(value, into: $0) }
    }

    public mutating func number(_ value: UInt64) {
        buffer.write(reserving: DecimalDigits.maximumCount) { DecimalDigits.write(value, into: $0) }
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
            Array(value.description.utf8).withUnsafeBytes { append($0) }
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

    /// Writes `"source"` escaped at `output`; returns the bytes written. `output` must have room
    /// for 6 bytes per input byte and 18 more: it is written sixteen bytes at a time.
    static func writeQuoted(_ source: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var out = output
        out.pointee = UInt8(ascii: "\"")
        out += 1
        let count = source.count
        guard let input = source.baseAddress else {
            out.pointee = UInt8(ascii: "\"")
            return 2
        }
        if ByteScan.copyIfShortAndClean(input, count: count, to: out, flags: .json) {
            out[count] = UInt8(ascii: "\"")
            return count &+ 2
        }
        var index = 0
        while index < count {
            // Sixteen bytes at a time, escapes included, up to a byte that needs a closer look:
            // non-ASCII text or DEL.
            out = cellar_escape_json(input, count, &index, out)
            guard index < count else { break }
            let byte = input[index]
            if byte == 0xE2 {
                // U+2028 and U+2029 end lines in JavaScript; the bidirectional controls reorder text.
                if index + 2 < count, let unit = UnicodeControls.escapedUnit(input[index + 1], input[index + 2]) {
                    out += writeUnicodeEscape(unit, into: out)
                    index &+= 3
                    continue
                }
                out.pointee = byte
                out += 1
                index &+= 1
                continue
            }
            // Non-ASCII text or DEL: written as it is, with the non-ASCII bytes after it.
            out.pointee = byte
            out += 1
            index &+= 1
            while index < count && input[index] >= 0x80 {
                let next = input[index]
                if next == 0xE2 { break }
                out.pointee = next
                out += 1
                index &+= 1
            }
        }
        out.pointee = UInt8(ascii: "\"")
        out += 1
        return out - output
    }

    static func writeUnicodeEscape(_ unit: UInt16, into out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = 0x5C
        out[1] = UInt8(ascii: "u")
        HexDigits.write(UInt64(unit), count: 4, into: out + 2)
        return 6
    }

    /// Appends a row's detail link, `"base/identifier"`, with the identifier percent-encoded as
    /// ``RowSelection`` does, without building the string.
    public mutating func link(base: String, identifier: String) {
        string(base)
        // Reopen the string: replace the closing quote by `/`, then the segment and the quote.
        buffer.truncate(to: buffer.count - 1)
        raw("/")
        pathSegmentClosingString(identifier)
    }
}
