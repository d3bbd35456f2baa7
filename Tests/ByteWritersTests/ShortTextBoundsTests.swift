import Foundation
import Testing

@testable import ByteWriters

/// The escapers read short texts a word at a time. These texts sit at the very end of their own
/// allocation, so that a read past the text is a heap overflow AddressSanitizer reports
/// (`make test` runs the suites again under it).
@Suite struct ShortTextBoundsTests {
    static let samples: [String] = ["a", "ab", "<b", "abc", "a&c", "Walt", "Writer", "Manager", "x'y\"z", "Designer", "Person 7 <b>&\"'"]

    /// `bytes` copied to an allocation of exactly their size, written by `write` into one of
    /// `room` bytes; what it wrote.
    static func written(
        _ bytes: [UInt8], room: Int, by write: (UnsafeBufferPointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Int
    ) -> [UInt8] {
        let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        defer { input.deallocate() }
        _ = input.initialize(from: bytes)
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: room)
        defer { output.deallocate() }
        return Array(UnsafeBufferPointer(start: output, count: write(UnsafeBufferPointer(input), output)))
    }

    static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        written(bytes, room: bytes.count * 6 + 16, by: HTMLWriter.escape)
    }

    @Test(arguments: samples)
    func textsAtTheEndOfTheirAllocationAreEscapedWithoutReadingPastThem(text: String) {
        var writer = HTMLWriter()
        writer.text(text)
        #expect(Self.escaped(Array(text.utf8)) == writer.bytes)
    }

    @Test func everyLengthFromOneToSixteenWithTheSpecialByteAnywhere() {
        for length in 1...16 {
            for position in -1..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "q"), count: length)
                if position >= 0 { bytes[position] = UInt8(ascii: "&") }
                let expected = position < 0 ? bytes : Array(bytes[..<position]) + Array("&amp;".utf8) + Array(bytes[(position + 1)...])
                #expect(Self.escaped(bytes) == expected, "length \(length), & at \(position)")
            }
        }
    }

    /// Path segments of up to eight digits are tested and copied as one word: every byte at every
    /// position of segments of 1 to 10 bytes must come out as the byte loop encodes it, read from
    /// and written to allocations of exactly the right size.
    @Test func pathSegmentsOfEveryShortLengthWithAnyByteAnywhere() {
        func reference(_ bytes: [UInt8]) -> [UInt8] {
            bytes.flatMap { byte -> [UInt8] in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                    [byte]
                default: Array(String(format: "%%%02X", byte).utf8)
                }
            }
        }
        for length in 1...10 {
            for position in 0..<length {
                for byte in UInt8(0)...UInt8(255) {
                    var bytes = (0..<length).map { UInt8(ascii: "0") + UInt8($0 % 10) }
                    bytes[position] = byte
                    let expected = reference(bytes)
                    if Self.written(bytes, room: expected.count, by: PercentEncoding.writeSegment) != expected {
                        Issue.record("byte \(byte) at \(position) of \(length)")
                        return
                    }
                }
            }
        }
    }
}
