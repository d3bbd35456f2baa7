import TableKit
import Testing

@Suite struct TableViewCellTests {
    private final class EngineerCell: TableViewCell {}
    private final class Cell: TableViewCell {}
    private final class Badge: TableViewCell {}
    private final class StyledCell: TableViewCell {
        override class var styleClass: String { "fancy" }
    }

    @Test func styleClassIsTheIdentifierWithoutCellLowercased() {
        #expect(EngineerCell.styleClass == "engineer")
        #expect(Badge.styleClass == "badge")
        // A class named just "Cell" keeps its name rather than becoming empty.
        #expect(Cell.styleClass == "cell")
        #expect(StyledCell.styleClass == "fancy")
    }

    @Test func theRowElementCarriesTheStyleClass() throws {
        let registry = ReuseRegistry()
        try registry.register(StyledCell.self)
        let controller = StubController(rows: 1) { DataCellProvider(for: $0) { (_: StyledCell) in } }
        let html = try controller.renderedHTML(registry: registry)
        #expect(html.contains(#"<li class="cell fancy" id="row-0-0"></li>"#))
    }

    @Test func theBaseCellRendersNothing() throws {
        var html = HTMLWriter()
        try TableViewCell().render(into: &html)
        #expect(html.count == 0)
    }
}
