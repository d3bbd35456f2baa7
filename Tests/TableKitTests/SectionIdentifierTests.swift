import Foundation
import TableKit
import Testing

/// A section's identifier (`TableController.identifier(forSection:)`): its number by default, and
/// otherwise written escaped in `data-section` and percent-encoded in the section's ids.
@Suite struct SectionIdentifierTests {
    @Test func theDefaultIsTheSectionsNumber() {
        let controller = StubController(sections: [.init(rows: 1), .init(rows: 2)]) { _ in fatalError("no rows") }
        #expect((0..<2).map { controller.identifier(forSection: $0) } == ["0", "1"])
    }

    @Test func theWalkHandsTheIdentifierToItsSink() throws {
        var controller = StubController(sections: [.init(rows: 1), .init(rows: 1)]) { indexPath in
            DataCellProvider(for: indexPath) { (cell: TitleCell) in cell.title = "x" }
        }
        controller.sectionIdentifiers = ["t:red", "t:white"]
        let html = try controller.renderedHTML(registry: ReuseRegistry())
        #expect(html.contains(#"<section class="table-section" data-section="t:red">"#))
        #expect(html.contains(#"<ul class="rows" id="section-t%3Ared-rows" data-section="t:red">"#))
        #expect(html.contains(#"<ul class="rows" id="section-t%3Awhite-rows" data-section="t:white">"#))
    }

    /// Quotes, spaces, markup, `%`, non-ASCII and a very long value: `data-section` gives the
    /// identifier back exactly, and every id is the identifier percent-encoded, with no space,
    /// quote or `<` left, and no two alike.
    @Test func hostileIdentifiersStayInTheirAttributes() throws {
        let identifiers = [
            #"t:say "hi""#, "t:it's", "t:a b\tc\nd", "t:<b>&amp;</b>", "t:100%", "t:%41", "t:é/ü?#x", "t:" + String(repeating: "long ", count: 2_000),
            "t:-rows", "",
        ]
        var controller = StubController(
            sections: identifiers.map { _ in .init(header: "Header", footer: "Footer", rows: 1) }
        ) { indexPath in
            DataCellProvider(for: indexPath) { (cell: TitleCell) in cell.title = "x" }
        }
        controller.sectionIdentifiers = identifiers
        let html = try controller.renderedHTML(registry: ReuseRegistry())
        let tree = try HTMLNode.parse(fragment: html)
        let sections = tree.allNodes.filter { $0.tag == "section" }
        #expect(sections.map { $0.attributes["data-section"] } == identifiers)
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for (section, identifier) in zip(sections, identifiers) {
            let encoded = identifier.addingPercentEncoding(withAllowedCharacters: unreserved)!
            let ids = section.allNodes.compactMap { $0.attributes["id"] }.filter { $0.hasPrefix("section-") }
            #expect(ids == ["section-\(encoded)-header", "section-\(encoded)-rows", "section-\(encoded)-footer"])
            #expect(section.attributes["aria-labelledby"] == "section-\(encoded)-header")
            #expect(section.allNodes.first { $0.tag == "ul" }?.attributes["data-section"] == identifier)
            for id in ids { #expect(!id.contains { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == "<" }, "\(id.prefix(40))") }
        }
        let ids = tree.allNodes.compactMap { $0.attributes["id"] }
        #expect(Set(ids).count == ids.count, "no id twice")
    }
}
