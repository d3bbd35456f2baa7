import TableKit
import Testing

/// SwiftCleanTools style: one `[any CellData]` list, each row dispatched by its `cellIdentifier`.
@Suite struct CellDataTests {
    private struct ProductData: CellData {
        var name: String
        var price: Int
        var cellIdentifier: String { ProductCell.reuseIdentifier }
    }

    private struct BannerData: CellData {
        var message: String
        var cellIdentifier: String { BannerCell.reuseIdentifier }
    }

    /// A row whose cell is a prototype: it names the prototype and supplies its values.
    private struct NoteData: CellData, PrototypeData {
        var title: String
        var body: String?
        var cellIdentifier: String { "NoteCell" }

        func prototypeValue(forKey key: String) -> PrototypeValue {
            switch key {
            case "title": .text(title)
            case "body": body.map(PrototypeValue.text) ?? .missing
            default: .missing
            }
        }
    }

    /// Data that claims the product cell but is not a product.
    private struct ImpostorData: CellData {
        var cellIdentifier: String { ProductCell.reuseIdentifier }
    }

    private final class ProductCell: TableViewCell, CellDataConfigurable {
        var product: ProductData?
        func configure(with data: any CellData) throws { product = try expect(data, as: ProductData.self) }
        override func prepareForReuse() { product = nil }
        override func render(into html: inout HTMLWriter) throws {
            guard let product else { return }
            html.element("span", class: "cell-title", text: product.name)
            html.raw(" <span class=\"cell-detail\">")
            html.text(grouping: product.price)
            html.raw("</span>")
        }
    }

    private final class BannerCell: TableViewCell, CellDataConfigurable {
        var message = ""
        func configure(with data: any CellData) throws { message = try expect(data, as: BannerData.self).message }
        override func prepareForReuse() { message = "" }
        override func render(into html: inout HTMLWriter) throws { html.element("p", class: "banner", text: message) }
    }

    private struct CatalogController: TableController {
        var items: [any CellData]
        var title: String { "Catalog" }
        func numberOfRows(inSection section: Int) -> Int { items.count }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            DataCellProvider(cellData: items[indexPath.row], for: indexPath)
        }
    }

    private func registry() throws -> ReuseRegistry {
        let registry = ReuseRegistry()
        try registry.register(ProductCell.self)
        try registry.register(BannerCell.self)
        try registry.registerPrototype(
            "NoteCell", template: #"<p class="cell-title">{{title}}</p>{{#body}}<p class="cell-subtitle">{{body}}</p>{{/body}}"#)
        return registry
    }

    @Test func heterogeneousRowsAreDispatchedByTheirIdentifier() throws {
        let items: [any CellData] = [
            BannerData(message: "Free shipping"),
            ProductData(name: "Chair", price: 12_500),
            NoteData(title: "Shipping", body: "Two days."),
            ProductData(name: "Desk", price: 300),
            NoteData(title: "Returns", body: nil),
        ]
        let html = try CatalogController(items: items).renderedHTML(registry: registry())
        #expect(
            html == """
                <section class="table-section" data-section="0">
                <ul class="rows" id="section-0-rows" data-section="0">
                <li class="cell banner" id="row-0"><p class="banner">Free shipping</p></li>
                <li class="cell product" id="row-1"><span class="cell-title">Chair</span> <span class="cell-detail">12,500</span></li>
                <li class="cell note" id="row-2"><p class="cell-title">Shipping</p><p class="cell-subtitle">Two days.</p></li>
                <li class="cell product" id="row-3"><span class="cell-title">Desk</span> <span class="cell-detail">300</span></li>
                <li class="cell note" id="row-4"><p class="cell-title">Returns</p></li>
                </ul>
                </section>

                """)
    }

    @Test func theProviderTakesTheDatasIdentifierAndNeverRegisters() {
        let provider = DataCellProvider(cellData: BannerData(message: "Hi"), for: IndexPath(row: 3, section: 1))
        #expect(provider.reuseIdentifier == "BannerCell")
        #expect(provider.indexPath == IndexPath(row: 3, section: 1))
        #expect(!provider.registerCell)
        #expect(throws: TableKitError.unregisteredIdentifier("BannerCell", registered: [])) {
            _ = try provider.dequeueConfiguredCell(from: TableView(registry: ReuseRegistry()))
        }
    }

    @Test func dataOfTheWrongKindIsATypeMismatchNamingBoth() throws {
        let error = #expect(throws: TableKitError.self) {
            _ = try CatalogController(items: [ImpostorData()]).renderedHTML(registry: registry())
        }
        guard case .typeMismatch(let identifier, let registered, let requested) = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(identifier == "ProductCell")
        #expect(registered.hasSuffix("ImpostorData"))
        #expect(requested.hasSuffix("ProductData"))
    }

    @Test func aClassCellThatTakesNoCellDataIsATypeMismatch() throws {
        let registry = try registry()
        try registry.register(TitleCell.self)
        struct TitleData: CellData { var cellIdentifier: String { "TitleCell" } }
        #expect(
            throws: TableKitError.typeMismatch(
                identifier: "TitleCell", registered: "TableKitTests.TitleCell", requested: "TableKit.CellDataConfigurable")
        ) {
            _ = try CatalogController(items: [TitleData()]).renderedHTML(registry: registry)
        }
    }

    @Test func aPrototypeNeedsDataItCanRead() throws {
        struct Opaque: CellData { var cellIdentifier: String { "NoteCell" } }
        #expect(throws: TableKitError.self) {
            _ = try CatalogController(items: [Opaque()]).renderedHTML(registry: registry())
        }
    }
}
