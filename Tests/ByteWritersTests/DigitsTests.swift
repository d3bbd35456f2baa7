import ByteWriters
import Testing

/// The one decimal and the one hex writer, held to what the standard library prints.
@Suite struct DigitsTests {
    @Test func hexDigitsAreTheLowDigitsMostSignificantFirst() {
        var generator = SystemRandomNumberGenerator()
        for value in [0, 1, 0xF, 0x10, .max, 0x0123_4567_89AB_CDEF] + (0..<1_000).map({ _ in generator.next() as UInt64 }) {
            for count in 1...16 {
                let written = String(unsafeUninitializedCapacity: count + 2) { bytes in
                    bytes[0] = UInt8(ascii: "<")
                    HexDigits.write(value, count: count, into: bytes, at: 1)
                    bytes[count + 1] = UInt8(ascii: ">")
                    return count + 2
                }
                let low = count == 16 ? value : value & ((1 << UInt64(4 * count)) - 1)
                let digits = String(low, radix: 16)
                #expect(written == "<" + String(repeating: "0", count: count - digits.count) + digits + ">")
            }
        }
    }

    @Test func decimalDigitsAreWhatStringPrints() {
        var generator = SystemRandomNumberGenerator()
        let edges: [Int] = [0, 1, 9, 10, 99, 100, -1, -9, -10, .max, .min, .max - 1, .min + 1]
        for value in edges + (0..<2_000).map({ _ in Int(truncatingIfNeeded: generator.next() as UInt64) >> Int.random(in: 0..<63) }) {
            let written = String(unsafeUninitializedCapacity: DecimalDigits.maximumCount) { DecimalDigits.write(value, into: $0.baseAddress!) }
            #expect(written == String(value))
        }
        for value: UInt64 in [0, 9, 10, .max, UInt64(Int.max) + 1] + (0..<1_000).map({ _ in generator.next() }) {
            let written = String(unsafeUninitializedCapacity: DecimalDigits.maximumCount) { DecimalDigits.write(value, into: $0.baseAddress!) }
            #expect(written == String(value))
            #expect(DecimalDigits.count(of: value) == String(value).count)
        }
    }

    @Test func decimalDigitsInAWidthKeepTheLowDigitsWithZerosInFront() {
        let cases: [(UInt64, Int, String)] = [(7, 3, "007"), (0, 2, "00"), (2026, 4, "2026"), (12345, 3, "345"), (5, 1, "5")]
        for (value, width, expected) in cases {
            let written = String(unsafeUninitializedCapacity: width) { out in
                DecimalDigits.write(value, width: width, into: out.baseAddress!)
                return width
            }
            #expect(written == expected)
        }
    }

    @Test func percentEncodingKeepsTheUnreservedBytesOnly() {
        for byte in UInt8.min...UInt8.max {
            let unreserved = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8).contains(byte)
            #expect(PercentEncoding.isUnreserved(byte) == unreserved, "\(byte)")
            let encoded = String(unsafeUninitializedCapacity: 3) { HexDigits.writePercentEncoded(byte, into: $0.baseAddress!) }
            #expect(encoded == "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true))
        }
        #expect(PercentEncoding.encoded("/my list/é") { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "/") } == "/my%20list/%C3%A9")
        #expect(HexDigits.string(of: [0x00, 0x0A, 0xFF]) == "000aff")
        #expect((UInt8.min...UInt8.max).filter { HexDigits.value(of: $0) != nil }.count == 22)
    }

    /// Decoding as libmicrohttpd decodes a path: malformed escapes kept, `+` kept, `%00` a NUL.
    @Test func percentDecodingKeepsWhatIsNotAnEscape() {
        #expect(PercentEncoding.decoded("/my%20list/%C3%A9".utf8) == "/my list/é")
        #expect(PercentEncoding.decoded("a+b%2Bc".utf8) == "a+b+c")
        #expect(PercentEncoding.decoded("100%".utf8) == "100%")
        #expect(PercentEncoding.decoded("%4".utf8) == "%4")
        #expect(PercentEncoding.decoded("%zz%41".utf8) == "%zzA")
        #expect(PercentEncoding.decoded("a%00b".utf8) == "a\u{0}b")
        #expect(PercentEncoding.decoded(ArraySlice("x%2fy".utf8)) == "x/y")
    }
}
