import TableKit

/// One row of a database list, as a cell's data: the page it was fetched with and its place.
///
/// A prototype template reads its columns by name (`{{title}}`, `{{price}}`): text as text,
/// integers as numbers, NULL as missing (so `{{#discount}}…{{/discount}}` shows only when there is
/// one), and a foreign key as its row's label.
public struct DatabaseRow: PrototypeData {
    let page: PageRows
    let row: Int

    /// The value of the column named `column` (``DatabaseValue/null`` for a column the table does not have).
    public subscript(column: String) -> DatabaseValue {
        guard let index = page.list.columnIndex(named: column) else { return .null }
        return page.rows.databaseValue(row: row, column: index)
    }

    /// The column's value as text: numbers in decimal, a foreign key as its row's label; nil for NULL.
    public func text(_ column: String) -> String? {
        guard let index = page.list.columnIndex(named: column) else { return nil }
        return page.linkLabel(row: row, column: index) ?? page.rows.string(row: row, column: index)
    }

    /// The column's value when it is an integer; nil for any other value (NULL, a real, text, a
    /// blob) or a column the table does not have.
    public func integer(_ column: String) -> Int64? {
        if case .integer(let integer) = self[column] { return integer }
        return nil
    }

    /// The column's value as a number: a real, or an integer as a real; nil for anything else.
    public func real(_ column: String) -> Double? {
        switch self[column] {
        case .real(let real): real
        case .integer(let integer): Double(integer)
        default: nil
        }
    }

    /// The column's bytes when it holds a blob; nil for anything else.
    public func blob(_ column: String) -> [UInt8]? {
        if case .blob(let bytes) = self[column] { return bytes }
        return nil
    }

    /// Whether the column holds NULL (true, too, for a column the table does not have).
    public func isNull(_ column: String) -> Bool {
        self[column] == .null
    }

    /// The row's identifier: its detail's last path segment.
    public var identifier: String { page.identifier(ofRow: row) }

    public func prototypeValue(forKey key: String) -> PrototypeValue {
        guard let column = page.list.columnIndex(named: key) else { return .missing }
        if let label = page.linkLabel(row: row, column: column) { return .text(label) }
        switch page.rows.value(row: row, column: column) {
        case .null: return .missing
        case .integer(let integer): return .number(Int(integer))
        default: return page.rows.string(row: row, column: column).map { .text($0) } ?? .missing
        }
    }
}
