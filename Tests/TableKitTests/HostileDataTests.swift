import Foundation
import TableKit
import Testing

/// Hostile data in every place a list writes data: cell text and attributes, section headers and
/// footers, row identifiers (ids and links) and prototype values. The output is judged by an
/// HTML5 parser, not by comparing strings: it must hold exactly the table's own elements, and
/// every payload must come back, intact, as text or as an attribute value.
@Suite struct HostileDataTests {
    static let payloads: [String] = [
        "<script>alert(1)</script>",
        "<SCRIPT>alert(1)</SCRIPT>",
        "<scr<script>ipt>alert(1)</script>",
        "<script src=//evil.example/x.js></script>",
        #""><img src=x onerror=alert(1)>"#,
        #"<img src="x" onerror="alert(1)">"#,
        "' onmouseover='x",
        #"" onfocus="alert(1)" autofocus=""#,
        "' autofocus onfocus='alert(1)",
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "</li><li>",
        "</span></a></li></ul></section><script>alert(1)</script>",
        "</h2><h1>not a header</h1>",
        "</p><p>",
        "{{name}}",
        "{{{name}}}",
        "{{#href}}x{{/href}}",
        "{{& name}}",
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "&amp;lt;",
        "&#60;script&#62;",
        "&#x3C;b&#x3E;",
        "&",
        "<",
        ">",
        "\"",
        "'",
        "a\u{0}b<\u{0}script>",
        "\r\n\r\n<h1>split</h1>\r",
        "👩🏽‍💻🏳️‍🌈🙂",
        "\u{202E}gnp.exe",
        "\u{200B}\u{FEFF}\u{2028}\u{2029}",
        "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗͕",
        "עברית <b>bold</b>",
        "<svg onload=alert(1)>",
        "<svg><script>alert(1)</script></svg>",
        "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
        "<iframe src=\"javascript:alert(1)\"></iframe>",
        "<a href=\"javascript:alert(1)\">click</a>",
        "<!-- comment -->",
        "<!--",
        "-->",
        "<![CDATA[<script>alert(1)</script>]]>",
        "<style>*{display:none}</style>",
        "<textarea>",
        "<plaintext>",
        "<xmp><title>",
        "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
        "<body onload=alert(1)>",
        "<base href=\"//evil.example/\">",
        "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
        "<img src=x onerror=alert(1)//",
        "\u{1}\u{8}\u{B}\u{C}\u{1F}\u{7F}\u{85}<b>",
        String(Unicode.Scalar(0xFDD0)!) + "\u{FFFE}\u{1FFFF}\u{10FFFF}<i>",
        "/../../etc/passwd",
        "%3Cscript%3E%00",
        "a b?c=d&e=f#g",
    ]

    /// Writes its text into an element and into double- and single-quoted attributes.
    final class HostileCell: TableViewCell {
        var text = ""

        override func prepareForReuse() { text = "" }

        override func render(into html: inout HTMLWriter) throws {
            html.raw("<a class=\"cell-link\" href=\"")
            selection?.write(into: &html)
            html.raw("\"")
            html.attribute("title", text)
            html.raw(" data-single='")
            html.attributeText(text)
            html.raw("'>")
            html.element("span", class: "cell-title", text: text)
            html.raw("</a>")
        }
    }

    static let echoTemplate = """
        <a class="cell-link" href="{{href}}" title="{{text}}" data-id="{{id}}" data-single='{{text}}'>\
        <span class="cell-title">{{text}}</span></a>{{#note}}<p class="cell-note">{{note}}</p>{{/note}}
        """
    static let selectionBase = #"/hostile"<'&>"#

    private static func rowIdentifier(_ indexPath: IndexPath) -> String {
        "\(indexPath.section).\(indexPath.row):" + payloads[indexPath.section]
    }

    private static func render() throws -> String {
        let registry = ReuseRegistry()
        try registry.register(HostileCell.self)
        try registry.registerPrototype("EchoCell", template: echoTemplate)
        var controller = StubController(sections: payloads.map { .init(header: $0, footer: $0, rows: 2) }) { indexPath in
            let payload = payloads[indexPath.section]
            if indexPath.row == 0 {
                return DataCellProvider(for: indexPath) { (cell: HostileCell) in cell.text = payload }
            }
            return DataCellProvider(prototype: "EchoCell", for: indexPath, data: ["text": payload, "note": payload])
        }
        controller.rowIdentifier = rowIdentifier
        return try controller.renderedHTML(registry: registry, selectionBase: selectionBase)
    }

    // MARK: What a parser makes of a string, by the HTML standard

    /// A string as it must come back from the parse, whichever way the writer and the parser treat
    /// what HTML forbids: line breaks normalised to LF (the parser does that), and NUL, U+FFFD and
    /// the code points a document may not hold (controls, noncharacters) left out, since a writer
    /// may replace them by U+FFFD and a parser drops NUL from text and replaces it in attributes.
    /// Everything else must come back exactly.
    static func canonical(_ string: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in string.unicodeScalars {
            if scalar == "\n" && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            if previousWasCR {
                scalars.append("\n")
            } else if !isForbidden(scalar) && scalar != "\u{FFFD}" {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Whether HTML forbids the code point in a document: controls but tab, LF, FF and CR, and noncharacters.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0C, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F, 0xFDD0...0xFDEF: true
        default: scalar.value & 0xFFFE == 0xFFFE
        }
    }

    private static func percentEncoded(_ string: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return string.addingPercentEncoding(withAllowedCharacters: unreserved)!
    }

    // MARK: The expected tree

    /// An element the parse must give (text and attribute values in ``canonical(_:)`` form);
    /// nil text means whitespace only (the table's line breaks).
    private struct Expected {
        var tag: String
        var attributes: [String: String]
        var text: String?
        var children: [Expected] = []
    }

    private static func expectedSection(_ section: Int) -> Expected {
        let payload = payloads[section]
        let text = canonical(payload)
        let attribute = canonical(payload)
        func row(_ row: Int, style: String, _ content: [Expected]) -> Expected {
            let identifier = rowIdentifier(IndexPath(row: row, section: section))
            return Expected(
                tag: "li", attributes: ["class": "cell \(style)", "id": "row-" + percentEncoded(identifier)], text: "", children: content)
        }
        func link(_ row: Int, extra: [String: String] = [:]) -> Expected {
            let identifier = rowIdentifier(IndexPath(row: row, section: section))
            let attributes = [
                "class": "cell-link", "href": selectionBase + "/" + percentEncoded(identifier), "title": attribute, "data-single": attribute,
            ].merging(extra) { $1 }
            return Expected(
                tag: "a", attributes: attributes, text: "", children: [Expected(tag: "span", attributes: ["class": "cell-title"], text: text)])
        }
        let echoIdentifier = canonical(rowIdentifier(IndexPath(row: 1, section: section)))
        return Expected(
            tag: "section",
            attributes: ["class": "table-section", "data-section": "\(section)", "aria-labelledby": "section-\(section)-header"],
            text: nil,
            children: [
                Expected(tag: "h2", attributes: ["class": "section-header", "id": "section-\(section)-header"], text: text),
                Expected(
                    tag: "ul", attributes: ["class": "rows", "id": "section-\(section)-rows", "data-section": "\(section)"], text: nil,
                    children: [
                        row(0, style: "hostile", [link(0)]),
                        row(
                            1, style: "echo",
                            [link(1, extra: ["data-id": echoIdentifier]), Expected(tag: "p", attributes: ["class": "cell-note"], text: text)]),
                    ]),
                Expected(tag: "p", attributes: ["class": "section-footer", "id": "section-\(section)-footer"], text: text),
            ])
    }

    private static func check(_ node: HTMLNode, against expected: Expected, at path: String) {
        #expect(node.tag == expected.tag, "\(path): element")
        #expect(node.attributes.mapValues(canonical) == expected.attributes, "\(path): attributes")
        if let text = expected.text {
            #expect(canonical(node.text) == text, "\(path): text")
        } else {
            #expect(node.text.isBlank, "\(path): stray text \(node.text.debugDescription)")
        }
        guard node.children.count == expected.children.count else {
            Issue.record("\(path): \(node.children.count) children (\(node.children.map(\.tag))), expected \(expected.children.count)")
            return
        }
        for (index, (child, expectedChild)) in zip(node.children, expected.children).enumerated() {
            check(child, against: expectedChild, at: "\(path) > \(child.tag)[\(index)]")
        }
    }

    // MARK: Tests

    @Test func thereAreEnoughPayloads() {
        #expect(Self.payloads.count >= 40)
        #expect(Set(Self.payloads).count == Self.payloads.count)
    }

    @Test func theCanonicalFormKeepsAllButWhatHTMLForbids() {
        #expect(Self.canonical("a\r\nb\rc\n") == "a\nb\nc\n")
        #expect(Self.canonical("<\u{0}\u{1}\u{7F}\u{85}" + String(Unicode.Scalar(0xFDEF)!) + "\u{FFFE}\u{1FFFF}\u{FFFD}>") == "<>")
        #expect(Self.canonical("\t\u{C} 🙂\u{202E}&lt;") == "\t\u{C} 🙂\u{202E}&lt;")
    }

    @Test func hostileDataNeverBecomesMarkup() throws {
        let html = try Self.render()
        // The writer replaced what HTML forbids (NUL, controls, noncharacters) before any parser saw it.
        #expect(!html.unicodeScalars.contains(where: Self.isForbidden))
        let tree = try HTMLNode.parse(fragment: html)

        // Only the table's own elements, and no comment, whatever the data held.
        let tags = Set(tree.allNodes.dropFirst().map(\.tag))
        #expect(tags == ["section", "h2", "ul", "li", "span", "a", "p"])
        let attributeNames = Set(tree.allNodes.flatMap(\.attributes.keys))
        #expect(attributeNames == ["class", "id", "data-section", "aria-labelledby", "href", "title", "data-single", "data-id"])

        // Exactly the expected structure, with every payload back as text or attribute value.
        #expect(tree.tag == "#fragment")
        #expect(tree.text.isBlank)
        try #require(tree.children.count == Self.payloads.count, "one <section> per payload, got \(tree.children.map(\.tag))")
        for (section, node) in tree.children.enumerated() {
            Self.check(node, against: Self.expectedSection(section), at: "section \(section) \(Self.payloads[section].debugDescription)")
        }
    }

    @Test func theParserCatchesUnescapedMarkup() throws {
        // The check above is only as good as the parse: unescaped data must show up in it.
        let tree = try HTMLNode.parse(fragment: #"<p class="x" title="" onmouseover="x">a</li><li>b<script>alert(1)</script><!-- c -->"#)
        let tags = tree.allNodes.map(\.tag)
        #expect(tags.contains("script") && tags.contains("li") && tags.contains("#comment"))
        #expect(tree.children.first?.attributes["onmouseover"] == "x")
    }
}
