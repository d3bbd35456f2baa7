import ByteWriters
import Foundation
import Testing

// Swift string literals cannot hold U+FDD0…U+FDEF, noncharacters HTML forbids.
private let fdd0 = String(Unicode.Scalar(0xFDD0)!)
private let fdef = String(Unicode.Scalar(0xFDEF)!)

@Suite struct HTMLWriterTests {
    private func written(_ body: (inout HTMLWriter) -> Void) -> String {
        var html = HTMLWriter()
        body(&html)
        return html.string
    }

    // MARK: Escaping

    @Test func textEscapesTheFiveCharacters() {
        #expect(written { $0.text(#"& < > " '"#) } == "&amp; &lt; &gt; &quot; &#39;")
        #expect(written { $0.text("<<>>&&") } == "&lt;&lt;&gt;&gt;&amp;&amp;")
    }

    @Test func escapingAppliesAtTheStartTheEndAndBetweenCleanRuns() {
        #expect(written { $0.text("<a>") } == "&lt;a&gt;")
        #expect(written { $0.text("clean") } == "clean")
        #expect(written { $0.text("x&y") } == "x&amp;y")
        #expect(written { $0.text("") } == "")
        // Every printable ASCII character but the five, and the four allowed controls, pass through unchanged.
        let ascii = String(decoding: ([0x09, 0x0A, 0x0C, 0x0D] + (0x20..<0x7F)).filter { !Array("&<>\"'".utf8).contains($0) }, as: UTF8.self)
        #expect(written { $0.text(ascii) } == ascii)
    }

    @Test func alreadyEscapedTextIsEscapedAgain() {
        #expect(written { $0.text("&lt;b&gt; &amp; &#39;") } == "&amp;lt;b&amp;gt; &amp;amp; &amp;#39;")
    }

    @Test func substringsAreEscapedToo() {
        let source = "xx<b>yy"
        #expect(written { $0.text(source.dropFirst(2).dropLast(2)) } == "&lt;b&gt;")
    }

    @Test func attributesEscapeTheirValues() {
        #expect(written { $0.attribute("title", #"a"b'c<d>&e"#) } == #" title="a&quot;b&#39;c&lt;d&gt;&amp;e""#)
        #expect(written { $0.attribute("data-count", -12) } == #" data-count="-12""#)
        #expect(written { $0.attributeText(#"" onmouseover="x"#) } == "&quot; onmouseover=&quot;x")
    }

    @Test func multiByteUTF8AndEmojiPassThrough() {
        let text = "Ünïcødé — 日本語 — עברית — 👩🏽‍💻🏳️‍🌈 — \u{202E}evil\u{202C} — e\u{301}"
        #expect(written { $0.text(text) } == text)
        #expect(written { $0.text(text) }.utf8.count == text.utf8.count)
        #expect(written { $0.attribute("title", "🙂<") } == #" title="🙂&lt;""#)
    }

    @Test(arguments: [
        "\u{0}", "\u{1}", "\u{8}", "\u{B}", "\u{E}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", fdd0, fdef,
        "\u{FFFE}", "\u{FFFF}", "\u{1FFFE}", "\u{2FFFF}", "\u{10FFFE}", "\u{10FFFF}",
    ])
    func codePointsHTMLForbidsBecomeReplacementCharacters(forbidden: String) {
        #expect(written { $0.text("a" + forbidden + "<") } == "a\u{FFFD}&lt;")
        #expect(written { $0.attribute("title", forbidden + forbidden) } == " title=\"\u{FFFD}\u{FFFD}\"")
    }

    @Test(arguments: [
        "\t", "\n", "\u{C}", "\r", " ", "\u{A0}", "\u{FDCF}", "\u{FDF0}", "\u{FFFC}", "\u{FFFD}", "\u{1FFFD}", "\u{10FFFD}", "\u{E000}",
        "\u{202E}", "\u{200B}", "\u{FEFF}", "é", "🙂",
    ])
    func theCodePointsAroundThemAreKept(allowed: String) {
        #expect(written { $0.text("a" + allowed + "b") }.unicodeScalars.elementsEqual(("a" + allowed + "b").unicodeScalars))
    }

    /// The escaper reads sixteen bytes at a time, then eight, and finishes texts shorter than a
    /// word, and the last bytes of longer ones, another way: every ASCII byte at every position of
    /// texts of 1 to 40 bytes (two vectors, a word and a tail) must come out as a plain
    /// byte-by-byte escaper writes it.
    @Test func everyASCIIByteAtEveryPositionIsEscapedAsAByteLoopWould() {
        func reference(_ bytes: [UInt8]) -> String {
            var out = ""
            for byte in bytes {
                switch byte {
                case 0x26: out += "&amp;"
                case 0x3C: out += "&lt;"
                case 0x3E: out += "&gt;"
                case 0x22: out += "&quot;"
                case 0x27: out += "&#39;"
                case 0x09, 0x0A, 0x0C, 0x0D: out.unicodeScalars.append(Unicode.Scalar(byte))
                case 0x00..<0x20, 0x7F: out += "\u{FFFD}"
                default: out.unicodeScalars.append(Unicode.Scalar(byte))
                }
            }
            return out
        }
        for length in 1...40 {
            for position in 0..<length {
                for byte in UInt8(0)...0x7F {
                    var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                    bytes[position] = byte
                    let text = String(decoding: bytes, as: UTF8.self)
                    let ours = written { $0.text(text) }
                    if ours != reference(bytes) {
                        Issue.record("byte \(byte) at \(position) of \(length): \(ours.debugDescription)")
                        return
                    }
                }
            }
        }
    }

    // MARK: Numbers

    @Test(arguments: [0, 7, 9, 10, 42, 999, 1000, -1, -10, 1_234_567, Int.max, Int.min])
    func integersAreWrittenInDecimal(number: Int) {
        #expect(written { $0.text(number) } == String(number))
    }

    @Test func integerExtremes() {
        #expect(written { $0.text(Int.min) } == "-9223372036854775808")
        #expect(written { $0.text(Int.max) } == "9223372036854775807")
    }

    @Test(arguments: [
        (0, "0"), (999, "999"), (1000, "1,000"), (10_000, "10,000"), (1_000_001, "1,000,001"), (1_002_030, "1,002,030"),
        (-1234, "-1,234"), (-999, "-999"), (Int.max, "9,223,372,036,854,775,807"), (Int.min, "-9,223,372,036,854,775,808"),
    ])
    func groupingPutsACommaEveryThreeDigits(number: Int, expected: String) {
        #expect(written { $0.text(grouping: number) } == expected)
    }

    // MARK: Path segments

    @Test func pathSegmentsKeepUnreservedCharactersAndEncodeTheRest() {
        #expect(written { $0.pathSegment("AZaz09-._~") } == "AZaz09-._~")
        #expect(written { $0.pathSegment("a b/c?d#e&f\"g'h<i>%") } == "a%20b%2Fc%3Fd%23e%26f%22g%27h%3Ci%3E%25")
        #expect(written { $0.pathSegment("..") } == "..")
        #expect(written { $0.pathSegment("é🙂") } == "%C3%A9%F0%9F%99%82")
        #expect(written { $0.pathSegment("\u{0}\n") } == "%00%0A")
        #expect(written { $0.pathSegment("") } == "")
    }

    @Test func pathSegmentsAgreeWithFoundation() {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for sample in ["javascript:alert(1)", "<script>", "a+b=c;d,e", "100%", "Grace Hopper", "ü/ß", "\u{202E}x"] {
            #expect(written { $0.pathSegment(sample) } == sample.addingPercentEncoding(withAllowedCharacters: unreserved))
        }
        // Every byte, alone and between others (the unreserved test is two bit masks).
        for byte in 0..<256 {
            let scalar = String(Unicode.Scalar(UInt8(byte)))
            for sample in [scalar, "a" + scalar + "Z"] {
                #expect(written { $0.pathSegment(sample) } == sample.addingPercentEncoding(withAllowedCharacters: unreserved))
            }
        }
    }

    // MARK: Markup

    @Test func rawMarkupIsWrittenAsIs() {
        #expect(written { $0.raw("<hr class=\"x\">") } == #"<hr class="x">"#)
        #expect(written { $0.unsafeRaw("<b>trusted</b>") } == "<b>trusted</b>")
        #expect(written { $0.unsafeRaw(bytes: Array("<i>".utf8)) } == "<i>")
    }

    @Test func elementsWrapEscapedText() throws {
        #expect(written { $0.element("span", class: "cell-title", text: "A & B") } == #"<span class="cell-title">A &amp; B</span>"#)
        #expect(written { $0.element("p", text: "<p>") } == "<p>&lt;p&gt;</p>")
        #expect(
            written { html in
                html.element("ul", class: "rows") { $0.element("li", text: "1") }
            } == #"<ul class="rows"><li>1</li></ul>"#)

        struct Stop: Error {}
        var html = HTMLWriter()
        #expect(throws: Stop.self) { try html.element("div") { _ in throw Stop() } }
        #expect(html.string == "<div>")
    }

    // MARK: Buffer

    @Test func theBufferCanBeInspectedTakenAndReused() {
        var html = HTMLWriter(capacity: 64)
        html.text("hello")
        #expect(html.count == 5)
        #expect(html.bytes == Array("hello".utf8))
        html.removeFirst(2)
        #expect(html.string == "llo")
        #expect(html.takeBytes() == Array("llo".utf8))
        #expect(html.count == 0)
        html.text("again")
        html.removeAll()
        #expect(html.count == 0 && html.string.isEmpty)

        var reused = HTMLWriter(buffer: ByteBuffer(copying: Array("kept ".utf8)))
        reused.text("<more>")
        #expect(reused.string == "kept &lt;more&gt;")
        let buffer = reused.takeBuffer()
        #expect(buffer.count == 17 && reused.count == 0)
    }
}

@Suite struct ByteBufferCopyTests {
    /// `ByteBuffer.copy` moves short counts as overlapping words: every count from 0 to past the
    /// memcpy threshold, at every alignment, copies exactly its bytes and touches nothing around them.
    @Test func everyCountAndAlignmentCopiesExactlyItsBytes() {
        let source = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for count in 0...140 {
            for alignment in 0..<8 {
                var target = [UInt8](repeating: 0xEE, count: count + 48)
                source.withUnsafeBufferPointer { from in
                    target.withUnsafeMutableBufferPointer { to in
                        ByteBuffer.copy(from.baseAddress! + alignment, count: count, to: to.baseAddress! + 16 + (7 - alignment))
                    }
                }
                let start = 16 + (7 - alignment)
                #expect(Array(target[start..<start + count]) == Array(source[alignment..<alignment + count]), "count \(count)")
                #expect(target[..<start].allSatisfy { $0 == 0xEE } && target[(start + count)...].allSatisfy { $0 == 0xEE }, "count \(count)")
            }
        }
    }
}
