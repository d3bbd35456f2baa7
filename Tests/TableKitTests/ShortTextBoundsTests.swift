import Foundation
import Testing

@testable import TableKit

/// The escapers read short texts a word at a time. These texts sit at the very end of their own
/// allocation, so that a read past the text is a heap overflow AddressSanitizer reports
/// (`make test` runs the suites again under it).
@Suite struct ShortTextBoundsTests {
    static let samples: [String] = ["a", "ab", "<b", "abc", "a&c", "Walt", "Writer", "Manager", "x'y\"z", "Designer", "Person 7 <b>&\"'"]

    @Test(arguments: samples)
    func textsAtTheEndOfTheirAllocationAreEscapedWithoutReadingPastThem(text: String) {
        let bytes = Array(text.utf8)
        let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        defer { input.deallocate() }
        _ = input.initialize(from: bytes)
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count * 6 + 8)
        defer { output.deallocate() }
        let count = HTMLWriter.escape(UnsafeBufferPointer(input), into: output)
        var writer = HTMLWriter()
        writer.text(text)
        #expect(Array(UnsafeBufferPointer(start: output, count: count)) == writer.bytes)
    }

    @Test func everyLengthFromOneToSixteenWithTheSpecialByteAnywhere() {
        for length in 1...16 {
            for position in -1..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "q"), count: length)
                if position >= 0 { bytes[position] = UInt8(ascii: "&") }
                let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: length)
                defer { input.deallocate() }
                _ = input.initialize(from: bytes)
                let output = UnsafeMutablePointer<UInt8>.allocate(capacity: length * 6 + 8)
                defer { output.deallocate() }
                let count = HTMLWriter.escape(UnsafeBufferPointer(input), into: output)
                let expected = position < 0 ? bytes : Array(bytes[..<position]) + Array("&amp;".utf8) + Array(bytes[(position + 1)...])
                #expect(Array(UnsafeBufferPointer(start: output, count: count)) == expected, "length \(length), & at \(position)")
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
                    let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: length)
                    defer { input.deallocate() }
                    _ = input.initialize(from: bytes)
                    let expected = reference(bytes)
                    let output = UnsafeMutablePointer<UInt8>.allocate(capacity: expected.count)
                    defer { output.deallocate() }
                    let count = HTMLWriter.writePathSegment(UnsafeBufferPointer(input), into: output)
                    if Array(UnsafeBufferPointer(start: output, count: count)) != expected {
                        Issue.record("byte \(byte) at \(position) of \(length)")
                        return
                    }
                }
            }
        }
    }
}
