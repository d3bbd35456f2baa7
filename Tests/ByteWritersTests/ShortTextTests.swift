import Testing

@testable import ByteWriters

/// `HTMLWriter.pathSegment` and `text` copy short clean strings with a word or two (digits as one
/// word, texts of up to 16 bytes through `ByteScan.copyIfShortAndCleanHTML`). These tests hold the
/// short cuts to the escapers' full paths for every length and kind of string, small or native.
@Suite struct ShortTextTests {
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

    /// What `write` appends to a fresh writer, between two markers (what follows must land right
    /// after it, whatever the short cut stored past its bytes).
    static func appended(_ write: (inout HTMLWriter) -> Void) -> String {
        var html = HTMLWriter()
        html.raw("<")
        write(&html)
        html.raw(">")
        return html.string
    }

    /// What `writer` writes for `bytes` given `room` bytes to write into: the path without the short cuts.
    static func direct(_ bytes: [UInt8], room: Int, _ writer: (UnsafeBufferPointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Int) -> String {
        var out = [UInt8](repeating: 0, count: max(1, room))
        let count = bytes.withUnsafeBufferPointer { source in out.withUnsafeMutableBufferPointer { writer(source, $0.baseAddress!) } }
        return String(decoding: out[..<count], as: UTF8.self)
    }

    @Test func pathSegmentsWriteTheSameWithOrWithoutTheShortCut() {
        for string in Self.strings {
            let bytes = Array(string.utf8)
            let expected = Self.direct(bytes, room: bytes.count * 3, PercentEncoding.writeSegment)
            #expect(Self.appended { $0.pathSegment(string) } == "<" + expected + ">", "\(bytes)")
        }
    }

    /// Texts of every length up to 20 with each byte an escaper looks at in every position.
    static var texts: [String] {
        var texts: [String] = ["", "Writer", "Designer", "Person 12", "Person 1234567", "Person 12345678"]
        for count in 0...20 {
            let plain = String((0..<count).map { Character(UnicodeScalar(UInt8(0x41 + $0 % 26))) })
            texts.append(plain)
            for position in 0..<count {
                for other in ["&", "<", ">", "\"", "'", "\\", "\t", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "\u{85}", "\u{FFFF}", " ", "~"] {
                    var characters = Array(plain)
                    characters[position] = Character(other)
                    texts.append(String(characters))
                }
            }
        }
        return texts
    }

    @Test func shortTextsAreWrittenAsTheEscaperWritesThem() {
        for text in Self.texts {
            let bytes = Array(text.utf8)
            #expect(Self.appended { $0.text(text) } == "<" + Self.direct(bytes, room: bytes.count * 6 + 16, HTMLWriter.escape) + ">", "\(bytes)")
            // The short cut takes exactly the ASCII texts of 1 to 16 bytes with nothing to escape.
            let clean = (1...16).contains(bytes.count) && bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && !Array("&<>\"'".utf8).contains($0) }
            var out = [UInt8](repeating: 0, count: 16)
            // Its callers hand it at most 16 bytes.
            let copied =
                (1...16).contains(bytes.count)
                && bytes.withUnsafeBufferPointer { source in
                    out.withUnsafeMutableBufferPointer {
                        ByteScan.copyIfShortAndCleanHTML(source.baseAddress!, count: source.count, to: $0.baseAddress!)
                    }
                }
            #expect(copied == clean, "\(bytes)")
            if copied { #expect(Array(out[..<bytes.count]) == bytes) }
        }
    }
}
