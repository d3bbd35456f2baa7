@testable import TableKit
import Testing

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
}
