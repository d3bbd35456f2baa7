/// Hexadecimal digits written straight into memory: the one hex writer of the package — request
/// ids and entity tags (lowercase), `\uXXXX` escapes, and percent-encoding (`%XX`, uppercase).
public enum HexDigits {
    /// The digit for a value below 16.
    @inlinable @inline(__always) public static func digit(_ value: UInt8, uppercase: Bool = false) -> UInt8 {
        let letters = uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")
        return value < 10 ? UInt8(ascii: "0") &+ value : letters &+ (value &- 10)
    }

    /// Writes the low `count` hex digits of `value`, most significant first, at `output`.
    @inlinable public static func write(_ value: UInt64, count: Int, into output: UnsafeMutablePointer<UInt8>, uppercase: Bool = false) {
        for index in 0..<count {
            let shift = UInt64(4 &* (count &- 1 &- index))
            output[index] = digit(UInt8(truncatingIfNeeded: (value &>> shift) & 0xF), uppercase: uppercase)
        }
    }

    /// ``write(_:count:into:uppercase:)`` at `offset` in `bytes`.
    @inlinable public static func write(_ value: UInt64, count: Int, into bytes: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        // The write goes through a pointer: a range outside `bytes` would overwrite other memory.
        // Offsets and counts are the callers' constants (a request id's halves, an ETag's digits),
        // never input, so one outside is a bug in the package, stopped here rather than written.
        precondition(offset >= 0 && offset + count <= bytes.count, "hex digits \(offset)..<\(offset + count) outside \(bytes.count) bytes")
        write(value, count: count, into: bytes.baseAddress.unsafelyUnwrapped + offset)
    }

    /// Writes `byte` percent-encoded, `%XX` with uppercase digits (RFC 3986); returns 3.
    @inlinable @inline(__always) public static func writePercentEncoded(_ byte: UInt8, into output: UnsafeMutablePointer<UInt8>) -> Int {
        output[0] = UInt8(ascii: "%")
        output[1] = digit(byte &>> 4, uppercase: true)
        output[2] = digit(byte & 0x0F, uppercase: true)
        return 3
    }
}

extension HexDigits {
    /// The value of a hex digit, either case; nil for any other byte.
    @inlinable public static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }
}

extension HexDigits {
    /// `bytes` as two lowercase hex digits each (`[0x0A, 0xFF]` is `0aff`).
    public static func string<Bytes: Collection<UInt8>>(of bytes: Bytes) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            var count = 0
            for byte in bytes {
                write(UInt64(byte), count: 2, into: out.baseAddress.unsafelyUnwrapped + count)
                count += 2
            }
            return count
        }
    }
}
