import TableKit
import Testing

@Suite struct HTMLWriterURLTests {
    private func written(_ url: String) -> (wrote: Bool, html: String) {
        var html = HTMLWriter()
        let wrote = html.urlAttribute("href", url)
        return (wrote, html.string)
    }

    @Test(arguments: [
        "https://example.com/a?b=c#d", "http://example.com", "HTTPS://EXAMPLE.COM", "mailto:ada@example.com", "/people/42", "people/42",
        "?page=2", "#top", "//cdn.example.com/x.js", "", "./x:y",
    ])
    func safeLinksAreWritten(url: String) {
        #expect(HTMLWriter.isSafeURL(url))
        #expect(written(url).wrote)
    }

    @Test(arguments: [
        "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "\u{1}\u{1F} javascript:alert(1)", "java\tscript:alert(1)",
        "java\nscript:alert(1)", "java\rscript:alert(1)", "vbscript:msgbox(1)", "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd", "ftp://example.com", "jav\u{0}ascript:alert(1)", "javascript\u{200B}:alert(1)", "x-custom:thing",
    ])
    func anythingElseIsLeftOut(url: String) {
        #expect(!HTMLWriter.isSafeURL(url))
        #expect(written(url) == (false, ""))
    }

    @Test func valuesAreEscapedAndEncoded() {
        #expect(written("/search?q=a b&c='d'").html == #" href="/search?q=a%20b&amp;c=&#39;d&#39;""#)
        #expect(written("/a\"><script>").html == #" href="/a%22%3E%3Cscript%3E""#)
        #expect(written("/caf\u{E9}/%41/%zz/%").html == #" href="/caf%C3%A9/%41/%25zz/%25""#)
        #expect(written("/x\\y^{|}`").html == #" href="/x%5Cy%5E%7B%7C%7D%60""#)
    }

    /// Whatever the data, a parser finds no `href` whose scheme could run script: the check is the
    /// browser's own reading of the attribute (WHATWG URL: leading and trailing C0 controls and
    /// spaces stripped, tabs and newlines removed, then a scheme is letters, digits, `+ - .`).
    @Test func noHostileLinkSurvivesAParse() throws {
        let urls =
            HostileDataTests.payloads + [
                "javascript:alert(1)", "\u{0}javascript:alert(1)", "  JAVASCRIPT:alert(1)", "java&#x09;script:alert(1)", "javascript&colon;alert(1)",
                "&#106;avascript:alert(1)", "data:text/html;base64,PHNjcmlwdD4=", "\tvbscript:x", "https://ok.example/", "/relative",
            ]
        var html = HTMLWriter()
        for url in urls {
            html.raw("<a")
            html.urlAttribute("href", url)
            html.raw(">x</a>\n")
        }
        let links = try HTMLNode.parse(fragment: html.string).children
        #expect(links.count == urls.count)
        #expect(links.allSatisfy { $0.tag == "a" && $0.children.isEmpty && $0.text == "x" })
        for (url, link) in zip(urls, links) {
            guard let href = link.attributes["href"] else { continue }
            #expect(Self.scheme(of: href).map { ["http", "https", "mailto"].contains($0) } ?? true, "\(url.debugDescription) → \(href)")
        }
        #expect(links.last?.attributes["href"] == "/relative")
    }

    /// The scheme a browser reads in an `href`, or nil for a relative reference.
    private static func scheme(of href: String) -> String? {
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        func isSchemeCharacter(_ scalar: Unicode.Scalar) -> Bool {
            isLetter(scalar) || ("0"..."9").contains(scalar) || scalar == "+" || scalar == "-" || scalar == "."
        }
        let scalars = href.unicodeScalars.drop { $0.value <= 0x20 }.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        guard let colon = scalars.firstIndex(of: ":") else { return nil }
        let scheme = scalars[..<colon]
        guard let first = scheme.first, isLetter(first), scheme.allSatisfy(isSchemeCharacter) else { return nil }
        return String(String.UnicodeScalarView(scheme)).lowercased()
    }
}
