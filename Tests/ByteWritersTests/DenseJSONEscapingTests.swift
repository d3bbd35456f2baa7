import Testing

@testable import ByteWriters

/// The JSON twin of TableKit's `DenseEscapingTests`: texts dense with characters to escape, of
/// every length up to five blocks of sixteen bytes, read from the very end of their allocation,
/// must come out as a plain loop over their code points writes them.
@Suite struct DenseJSONEscapingTests {
    static let pieces: [String] = [
        "\"", "\\", "<", ">", "&", "'", "a", "Z", "0", " ", "/", "\t", "\n", "\r", "\u{08}", "\u{01}", "\u{1F}", "\u{7F}", "é", "€",
        "\u{2028}", "\u{2029}", "🍷", "xyzw",
    ]

    /// What a byte-by-code-point JSON string writer writes, quotes included.
    static func reference(_ text: String) -> [UInt8] {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x3C, 0x3E, 0x26, 0x27, 0x2028, 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return Array((out + "\"").utf8)
    }

    static func quoted(_ bytes: [UInt8]) -> [UInt8] {
        let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        defer { input.deallocate() }
        _ = input.initialize(from: bytes)
        let room = bytes.count * 6 + 18
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: room)
        defer { output.deallocate() }
        return Array(UnsafeBufferPointer(start: output, count: JSONWriter.writeQuoted(UnsafeBufferPointer(input), into: output)))
    }

    @Test func denseTextsOfEveryLengthAreEscapedAsACodePointLoopWould() {
        var state: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        for length in 0...80 {
            for _ in 0..<12 {
                var text = ""
                while text.utf8.count < length {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let pick = Int(state >> 33) % (Self.pieces.count + 6)
                    text += pick < Self.pieces.count ? Self.pieces[pick] : Self.pieces[pick % 6]
                }
                let ours = Self.quoted(Array(text.utf8))
                if ours != Self.reference(text) {
                    Issue.record("\(text.debugDescription): \(String(decoding: ours, as: UTF8.self).debugDescription)")
                    return
                }
            }
        }
    }

    /// `string(after:_:)` stores a small ASCII value with nothing to escape from the string's own
    /// words: every short value, with each piece in every position, comes out as the loop writes it.
    @Test func shortValuesAfterTheirKeyAreWrittenAsACodePointLoopWould() {
        let syntaxes: [StaticString] = [",", ",\"role\":", ",\"a-long-key-12\":"]
        for length in 0...17 {
            let plain = String((0..<length).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) })
            var values = [plain]
            for position in 0..<length {
                for piece in Self.pieces {
                    values.append(String(plain.prefix(position)) + piece + String(plain.dropFirst(position + 1)))
                }
            }
            for value in values {
                for syntax in syntaxes {
                    var json = JSONWriter()
                    json.string(after: syntax, value)
                    let expected = Array(syntax.description.utf8) + Self.reference(value)
                    #expect(json.takeBytes() == expected, "\(value.debugDescription) after \(syntax)")
                }
            }
        }
    }
}
