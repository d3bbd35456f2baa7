import Cellar
import TableKit

/// `/big`: a million rows in one response, made up as they are written. The list is unpaged, so
/// the response streams in chunks and memory stays flat however many rows there are.
public struct BigListController: TableController {
    public let count: Int

    public init(count: Int = 1_000_000) { self.count = count }

    /// The rows are computed from their number: the count is all that can change.
    public var contentVersion: String? { "rows-\(count)" }

    public func numberOfRows(inSection section: Int) -> Int { count }
    public func titleForHeader(inSection section: Int) -> String? { "Generated rows" }
    public func titleForFooter(inSection section: Int) -> String? { "Streamed in chunks: the server never holds the whole page." }
    public func identifier(forRowAt indexPath: IndexPath) -> String { String(indexPath.row + 1) }

    public func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(for: indexPath, registerCell: false) { (_: BigRowCell) in }
    }

    public func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { BigRow(number: indexPath.row + 1) }

    public func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
        guard let number = Int(identifier), String(number) == identifier, (1...count).contains(number) else { return nil }
        return IndexPath(row: number - 1, section: 0)
    }

    public func detail(forRowAt indexPath: IndexPath) -> RowDetail? {
        let row = BigRow(number: indexPath.row + 1)
        return RowDetail(title: "Row \(row.number)", fields: [.init("Number", String(row.number)), .init("Square", String(row.square))])
    }
}

struct BigRow: Encodable {
    let number: Int
    var square: Int { number &* number }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(square, forKey: .square)
    }

    private enum CodingKeys: String, CodingKey { case number, square }
}

/// A generated row: its number and its square, computed while writing (no data behind it).
public final class BigRowCell: TableViewCell {
    public override func render(into html: inout HTMLWriter) throws {
        let number = indexPath.row + 1
        html.openSelectionLink(selection)
        html.raw("<span class=\"cell-title\">Row ")
        html.text(grouping: number)
        html.raw("</span> <span class=\"cell-detail\">")
        html.text(grouping: number &* number)
        html.raw("</span>")
        html.closeSelectionLink(selection)
    }
}
