import TableKit
import Testing

/// The columns layout: the same walk and cells, each section a `<tbody>` of `<tr>` rows.
@Suite struct TableStyleTests {
    final class PriceCell: TableViewCell, ConfigurableCell {
        var price: (name: String, cents: Int)?
        required init() {}
        func configure(with data: (name: String, cents: Int)) { price = data }
        override func prepareForReuse() { price = nil }
        override func render(into html: inout HTMLWriter) {
            guard let price else { return }
            html.raw("<th scope=\"row\">")
            html.text(price.name)
            html.raw("</th><td class=\"num\">")
            html.text(price.cents)
            html.raw("</td>")
        }
    }

    struct PricesController: TableController {
        var style: TableStyle
        var numberOfSections: Int { 2 }
        func numberOfRows(inSection section: Int) -> Int { section == 0 ? 2 : 1 }
        func titleForHeader(inSection section: Int) -> String? { section == 0 ? "Red <wine>" : nil }
        func titleForFooter(inSection section: Int) -> String? { section == 0 ? "2 rows" : nil }
        func identifier(forSection section: Int) -> String { section == 0 ? "red" : "white & rosé" }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            DataCellProvider(for: indexPath, cell: PriceCell.self, data: ("Wine \(indexPath.section)-\(indexPath.row)", 100 * indexPath.row))
        }
    }

    @Test func theColumnsLayoutWritesSectionsAsTableBodiesAndRowsAsTableRows() throws {
        let registry = ReuseRegistry()
        try registry.register(PriceCell.self)
        let controller = PricesController(style: .columns([TableColumn("Name"), TableColumn("Price", isNumeric: true)]))
        let html = try controller.renderedHTML(registry: registry)
        #expect(
            html == """
                <tbody class="rows" id="section-red-rows" data-section="red">
                <tr class="section-header"><th scope="rowgroup" colspan="2" id="section-red-header">Red &lt;wine&gt;</th></tr>
                <tr class="cell price" id="row-0-0"><th scope="row">Wine 0-0</th><td class="num">0</td></tr>
                <tr class="cell price" id="row-0-1"><th scope="row">Wine 0-1</th><td class="num">100</td></tr>
                </tbody>
                <tbody class="section-footer"><tr><td colspan="2" id="section-red-footer">2 rows</td></tr></tbody>
                <tbody class="rows" id="section-white%20%26%20ros%C3%A9-rows" data-section="white &amp; rosé">
                <tr class="cell price" id="row-1-0"><th scope="row">Wine 1-0</th><td class="num">0</td></tr>
                </tbody>

                """)
        // The same controller in the cells layout: the same cells, in lists.
        let cells = try PricesController(style: .cells).renderedHTML(registry: registry)
        #expect(cells.contains("<ul class=\"rows\" id=\"section-red-rows\" data-section=\"red\">"))
        #expect(cells.contains("<li class=\"cell price\" id=\"row-0-1\"><th scope=\"row\">Wine 0-1</th><td class=\"num\">100</td></li>"))
    }

    @Test func aRowAloneIsWrittenInItsLayout() throws {
        let registry = ReuseRegistry()
        try registry.register(PriceCell.self)
        let controller = PricesController(style: .columns([TableColumn("Name"), TableColumn("Price")]))
        let renderer = TableRenderer(controller: controller, tableView: TableView(registry: registry))
        var html = HTMLWriter()
        try renderer.renderRow(at: IndexPath(row: 1, section: 0), into: &html)
        #expect(html.string == "<tr class=\"cell price\" id=\"row-0-1\"><th scope=\"row\">Wine 0-1</th><td class=\"num\">100</td></tr>\n")
    }

    @Test func aControllerIsInTheCellsLayoutUnlessItSaysOtherwise() {
        struct Plain: TableController {
            func numberOfRows(inSection section: Int) -> Int { 0 }
            func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider { fatalError("no rows") }
        }
        #expect(Plain().style == .cells)
        #expect(TableStyle.columns([TableColumn("a")]).columns?.count == 1)
    }
}
