import Cellar
import TableKit

/// `/catalog`: rows of several kinds in one list, `[any CellData]`, each dispatched by its
/// `cellIdentifier` — SwiftCleanTools' `CellDataProtocol` — with a search form that shows a
/// banner when nothing matches and goes straight to the product when exactly one does.
public struct CatalogController: SearchableController {
    public let title = "Catalog"
    public let searchPrompt = "Search the catalog"
    public let searchTerm: String
    let rows: [any CatalogRow]
    public let action: ControllerAction

    public init(query: String?, listPath: String = "/catalog") {
        let term = String((query ?? "").trimmingWhitespace().prefix(200))
        searchTerm = term
        guard !term.isEmpty else {
            rows = Catalog.rows
            action = .render
            return
        }
        let matches = Catalog.rows.filter { $0.matches(term) }
        let products = matches.compactMap { $0 as? Product }
        if products.isEmpty {
            rows = Catalog.rows
            action = .alert(Alert(.warning, "No product matches “\(term)”. Showing the whole catalog."))
        } else if products.count == 1 {
            rows = products
            action = .redirect(to: RowSelection(base: listPath, identifier: products[0].id).href)
        } else {
            rows = matches
            action = .alert(Alert(.info, "\(products.count) products match “\(term)”."))
        }
    }

    /// The catalog is a constant of this build, and the search term is in the query.
    public var contentVersion: String? { "catalog" }

    public func numberOfRows(inSection section: Int) -> Int { rows.count }
    public func titleForFooter(inSection section: Int) -> String? { "Prices include the cellar’s corkage & care." }
    public func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider { DataCellProvider(cellData: rows[indexPath.row], for: indexPath) }
    public func identifier(forRowAt indexPath: IndexPath) -> String { rows[indexPath.row].id }
    public func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { rows[indexPath.row] }
    public func detail(forRowAt indexPath: IndexPath) -> RowDetail? { rows[indexPath.row].detail }

    public func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
        rows.firstIndex { $0.id == identifier }.map { IndexPath(row: $0, section: 0) }
    }
}

/// A catalog row: it names its cell, has an id, a detail, JSON, and can be searched.
public protocol CatalogRow: CellData, Encodable, Sendable {
    var id: String { get }
    var detail: RowDetail { get }
    func matches(_ term: String) -> Bool
}

/// A bottle or a cheese, shown by ``ProductCell``.
public struct Product: CatalogRow {
    public enum Kind: String, Sendable, Encodable { case wine, cheese }
    public let id: String
    public let name: String
    public let kind: Kind
    public let region: String
    public let priceCents: Int
    public var cellIdentifier: String { ProductCell.reuseIdentifier }

    public var detail: RowDetail {
        RowDetail(
            title: name,
            fields: [
                .init("Kind", kind.rawValue.capitalized), .init("Region", region), .init("Price", Product.format(priceCents)), .init("Code", id),
            ])
    }

    public func matches(_ term: String) -> Bool {
        name.lowercased().contains(term.lowercased()) || region.lowercased().contains(term.lowercased())
    }

    static func format(_ cents: Int) -> String {
        let fraction = cents % 100
        return "€\(cents / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

/// A cellar-master's note between products, shown with the `NoteCell` prototype.
public struct Note: CatalogRow, PrototypeData {
    public let id: String
    public let title: String
    public let body: String
    public var cellIdentifier: String { "NoteCell" }
    public var detail: RowDetail { RowDetail(title: title, fields: [.init("Note", body)]) }

    public func matches(_ term: String) -> Bool { title.lowercased().contains(term.lowercased()) || body.lowercased().contains(term.lowercased()) }

    public func prototypeValue(forKey key: String) -> PrototypeValue {
        switch key {
        case "title": .text(title)
        case "body": .text(body)
        default: .missing
        }
    }
}

/// A product row: name linking to the detail, region, price on the right.
public final class ProductCell: TableViewCell, CellDataConfigurable {
    var product: Product?

    public func configure(with data: any CellData) throws { product = try expect(data, as: Product.self) }
    public override func prepareForReuse() { product = nil }

    public override func render(into html: inout HTMLWriter) throws {
        guard let product else { return }
        html.openSelectionLink(selection)
        html.element("span", class: "cell-title", text: product.name)
        html.raw(" ")
        html.element("span", class: "cell-subtitle", text: product.region)
        html.raw(" ")
        html.element("span", class: "cell-detail", text: Product.format(product.priceCents))
        html.closeSelectionLink(selection)
    }
}

enum Catalog {
    static let rows: [any CatalogRow] = {
        let wines: [(String, String, Int)] = [
            ("Château Margaux 2015", "Bordeaux", 89_000), ("Barolo Riserva", "Piedmont", 7_450), ("Rioja Gran Reserva", "Rioja", 3_900),
            ("Chablis Premier Cru", "Burgundy", 4_200), ("Riesling Kabinett", "Mosel", 1_890), ("Grüner Veltliner", "Wachau", 1_650),
            ("Sancerre", "Loire", 2_700), ("Châteauneuf-du-Pape", "Rhône", 5_400), ("Amarone della Valpolicella", "Veneto", 6_300),
            ("Tokaji Aszú 5 Puttonyos", "Tokaj", 4_800), ("Vinho Verde", "Minho", 990), ("Port \"Vintage\" 2011", "Douro", 11_000),
            ("Champagne Brut <Réserve>", "Champagne", 5_900), ("Malbec & Friends", "Mendoza", 1_450),
        ]
        let cheeses: [(String, String, Int)] = [
            ("Comté 24 months", "Jura", 3_200), ("Roquefort", "Occitanie", 2_800), ("Parmigiano Reggiano", "Emilia-Romagna", 2_600),
            ("Manchego curado", "La Mancha", 2_100), ("Stilton", "Nottinghamshire", 2_300), ("Époisses", "Burgundy", 1_900),
            ("Gruyère d'alpage", "Fribourg", 3_100), ("Brie de Meaux 🧀", "Île-de-France", 1_700),
        ]
        func slug(_ name: String) -> String {
            String(name.lowercased().unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains(Character($0)) ? Character($0) : "-" })
                .split(separator: "-").joined(separator: "-")
        }
        var rows: [any CatalogRow] = [
            Note(id: "note-welcome", title: "Welcome to the cellar", body: "Wines first, then cheeses; ask us for pairings & <advice>.")
        ]
        rows += wines.map { Product(id: slug($0.0), name: $0.0, kind: .wine, region: $0.1, priceCents: $0.2) }
        rows.append(Note(id: "note-cheese", title: "On cheese", body: "Served at room temperature, never straight from the fridge."))
        rows += cheeses.map { Product(id: slug($0.0), name: $0.0, kind: .cheese, region: $0.1, priceCents: $0.2) }
        rows.append(Note(id: "note-end", title: "That’s all", body: ""))
        return rows
    }()
}

extension String {
    func trimmingWhitespace() -> Substring {
        var result = self[...]
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}
