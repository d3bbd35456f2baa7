import Testing

@testable import ByteWriters

/// The escaper handles a block of sixteen bytes at a time and every escape inside it without
/// scanning the block again, then finishes the last bytes from a padded copy. Texts dense with
/// characters to escape, of every length up to five blocks, must come out as a plain loop over
/// the text's code points writes them, read from the very end of their own allocation (a read
/// past it is a heap overflow under AddressSanitizer).
@Suite struct DenseEscapingTests {
    /// Pieces the texts are made of: every entity, plain ASCII, the controls HTML keeps and those
    /// it forbids, DEL, and two-, three- and four-byte text, allowed and forbidden.
    static let pieces: [String] = [
        "&", "<", ">", "\"", "'", "a", "b", "Z", "0", " ", "\t", "\n", "\r", "\u{0C}", "\u{01}", "\u{7F}", "é", "\u{85}", "€", "🍷", "xyzw",
        // Noncharacters, which a string literal may not spell.
        String(Unicode.Scalar(0xFFFE)!), String(Unicode.Scalar(0xFDD0)!), String(Unicode.Scalar(0x10FFFF)!),
    ]

    /// What a byte-by-code-point escaper writes.
    static func reference(_ text: String) -> [UInt8] {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;"
            case 0x3C: out += "&lt;"
            case 0x3E: out += "&gt;"
            case 0x22: out += "&quot;"
            case 0x27: out += "&#39;"
            case 0x09, 0x0A, 0x0C, 0x0D: out.unicodeScalars.append(scalar)
            case 0x00..<0x20, 0x7F...0x9F, 0xFDD0...0xFDEF: out += "\u{FFFD}"
            case let value where value & 0xFFFE == 0xFFFE: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return Array(out.utf8)
    }

    /// A deterministic mix: the same texts on every run.
    static func texts() -> [String] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var texts: [String] = []
        for length in 0...80 {
            for _ in 0..<12 {
                var text = ""
                while text.utf8.count < length {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    // Mostly entities and ASCII, so that blocks hold several escapes.
                    let pick = Int(state >> 33) % (pieces.count + 6)
                    text += pick < pieces.count ? pieces[pick] : pieces[pick % 5]
                }
                texts.append(text)
            }
        }
        return texts
    }

    @Test func denseTextsOfEveryLengthAreEscapedAsACodePointLoopWould() {
        for text in Self.texts() {
            let bytes = Array(text.utf8)
            let ours = ShortTextBoundsTests.written(bytes, room: bytes.count * 6 + 16, by: HTMLWriter.escape)
            if ours != Self.reference(text) {
                Issue.record("\(text.debugDescription): \(String(decoding: ours, as: UTF8.self).debugDescription)")
                return
            }
        }
    }

    @Test func everyLengthOfEscapesOnlyCrossesTheBlocksWhole() {
        for length in 0...70 {
            let text = String(repeating: "<&\"'>", count: 14).prefix(length)
            let bytes = Array(text.utf8)
            #expect(
                ShortTextBoundsTests.written(bytes, room: bytes.count * 6 + 16, by: HTMLWriter.escape) == Self.reference(String(text)),
                "length \(length)")
        }
    }
}
