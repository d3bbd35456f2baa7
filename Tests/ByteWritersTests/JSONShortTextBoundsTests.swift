import Foundation
import Testing

@testable import ByteWriters

/// JSON strings of 1 to 16 bytes are read a word at a time. Each text here sits at the very end
/// of its own allocation, so that a read past it is a heap overflow AddressSanitizer reports.
@Suite struct JSONShortTextBoundsTests {
    @Test func everyLengthFromOneToSixteenWithAnEscapedByteAnywhere() throws {
        for special in [UInt8(ascii: "\""), UInt8(ascii: "<"), 0x0A, UInt8(ascii: "'")] {
            for length in 1...16 {
                for position in -1..<length {
                    var bytes = [UInt8](repeating: UInt8(ascii: "q"), count: length)
                    if position >= 0 { bytes[position] = special }
                    let json = bytes.withUnsafeBufferPointer { exact in
                        // The text at the very end of its own allocation.
                        let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: exact.count)
                        defer { input.deallocate() }
                        _ = input.initialize(fromContentsOf: exact)
                        var output = [UInt8](repeating: 0, count: length * 6 + 18)
                        let count = output.withUnsafeMutableBufferPointer {
                            JSONWriter.writeQuoted(UnsafeBufferPointer(input), into: $0.baseAddress!)
                        }
                        return Data(output[..<count])
                    }
                    let decoded = try JSONDecoder().decode(String.self, from: json)
                    #expect(decoded == String(decoding: bytes, as: UTF8.self), "length \(length), \(special) at \(position)")
                }
            }
        }
    }

    /// `string(after:_:)` copies its syntax with overlapping moves chosen by its length.
    @Test func syntaxOfEveryLengthIsWrittenWhole() throws {
        let cases: [(StaticString, String)] = [
            (",", ","), ("[{", "[{"), (",\"a", ",\"a"), (",\"a\"", ",\"a\""), (",\"ab\"", ",\"ab\""), (",\"id\":", ",\"id\":"),
            (",\"bio\":", ",\"bio\":"), (",\"name\":", ",\"name\":"), (",\"email\":", ",\"email\":"),
            (",\"subtitle12\":", ",\"subtitle12\":"), (",\"description1\":", ",\"description1\":"),
            (",\"description12\":", ",\"description12\":"), (",\"a-much-longer-member\":", ",\"a-much-longer-member\":"),
        ]
        for (syntax, expected) in cases {
            var json = JSONWriter()
            json.raw("{")
            json.string(after: syntax, "v<")
            #expect(String(decoding: json.bytes, as: UTF8.self) == "{" + expected + "\"v\\u003c\"", "\(expected)")
        }
    }
}
