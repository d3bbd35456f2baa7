import Testing

@testable import TableKit

/// `HTMLWriter.pathSegment` reads a short identifier of digits from the small string's own bits.
/// These tests hold that layout to what the string's `utf8` view reads, for every length and
/// kind of string, so a toolchain that stored small strings differently would fail here first.
@Suite struct SmallStringDigitsTests {
    /// Strings of every length up to 20, made at run time and from literals, digits or not,
    /// ASCII or not, small and native.
    static var strings: [String] {
        var strings: [String] = ["", "0", "7", "42", "12345678", "123456789", "1234567890123456789", "00000000", "99999999"]
        for count in 0...20 {
            let digits = String((0..<count).map { Character(String(($0 * 7 + 3) % 10)) })
            strings.append(digits)
            strings.append(String(repeating: "9", count: count))
            for position in 0..<count {
                for other in ["a", "/", ":", " ", "é", "\u{0}", "\u{7F}"] {
                    var characters = Array(digits)
                    characters[position] = Character(other)
                    strings.append(String(characters))
                }
            }
        }
        strings += (0..<2_000).map { String($0 * 7_919) }
        strings += ["١٢٣", "１２３", "12\u{301}", String(Substring("x12345678".dropFirst()))]
        return strings
    }

    @Test func smallDigitsAreExactlyTheStringsBytes() {
        for string in Self.strings {
            let bytes = Array(string.utf8)
            let expected = !bytes.isEmpty && bytes.count <= 8 && bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            guard let digits = HTMLWriter.smallDigits(string) else {
                #expect(!expected, "\(bytes) not read as digits")
                continue
            }
            #expect(expected, "\(bytes) read as digits")
            #expect(digits.count == bytes.count)
            let read = (0..<digits.count).map { UInt8(truncatingIfNeeded: digits.word >> UInt64(8 * $0)) }
            #expect(read == bytes, "\(bytes)")
        }
    }

    @Test func pathSegmentsWriteTheSameWithOrWithoutTheShortCut() {
        for string in Self.strings {
            var html = HTMLWriter()
            html.raw("<")
            html.pathSegment(string)
            html.raw(">")
            var slow = [UInt8](repeating: 0, count: max(1, string.utf8.count * 3))
            let count = Array(string.utf8).withUnsafeBufferPointer { source in
                slow.withUnsafeMutableBufferPointer { HTMLWriter.writePathSegment(source, into: $0.baseAddress!) }
            }
            #expect(html.string == "<" + String(decoding: slow[..<count], as: UTF8.self) + ">", "\(Array(string.utf8))")
        }
    }
}
