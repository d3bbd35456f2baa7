import Cellar

/// One fetched page of a database list, fixed once fetched: its rows, the labels of the rows its
/// foreign keys reference, and where those links lead. Cells read a row from it.
final class PageRows: Sendable {
    let list: TableList
    let rows: FetchedRows
    /// The number of the page's first row in the list (a view's rows are numbered from it).
    let firstRow: Int
    /// By column: the label of each referenced row on the page, or nil for a column without.
    let linkLabels: [[DatabaseValue: String]?]
    /// By column: where a foreign key's value links (`/regions/`), or nil.
    let linkBases: [String?]

    init(list: TableList, rows: FetchedRows, firstRow: Int, linkLabels: [[DatabaseValue: String]?], linkBases: [String?]) {
        self.list = list
        self.rows = rows
        self.firstRow = firstRow
        self.linkLabels = linkLabels
        self.linkBases = linkBases
    }

    var count: Int { rows.count }

    /// Whether the column links to another table's rows.
    func links(column: Int) -> Bool {
        column < linkBases.count && linkBases[column] != nil
    }

    /// The label of the row a foreign key's value references, when it has one.
    func linkLabel(row: Int, column: Int) -> String? {
        guard column < linkLabels.count, let labels = linkLabels[column] else { return nil }
        return labels[rows.databaseValue(row: row, column: column)]
    }

    /// The detail a foreign key's value leads to, or nil.
    func link(row: Int, column: Int) -> String? {
        guard column < linkBases.count, let base = linkBases[column], let value = rows.string(row: row, column: column) else { return nil }
        return base + DatabaseListController.percentEncodedSegment(value)
    }

    /// A value as a row shows it: a foreign key by its row's label, NULL as `NULL`.
    func text(row: Int, column: Int) -> String {
        if let label = linkLabel(row: row, column: column) { return label }
        return rows.string(row: row, column: column) ?? "NULL"
    }

    /// A row's identifier: its key's value, or for a compound key each part with `%` and `,`
    /// encoded, joined by commas; a view's row, its number in the list.
    func identifier(ofRow row: Int) -> String {
        guard list.hasKey else { return String(firstRow + row + 1) }
        if list.keyColumns.count == 1 { return rows.string(row: row, column: list.keyColumns[0]) ?? "" }
        return list.keyColumns.map { column in
            (rows.string(row: row, column: column) ?? "").replacing("%", with: "%25").replacing(",", with: "%2C")
        }.joined(separator: ",")
    }
    /// A row's JSON item: every column under its name, typed as SQLite holds it (a blob as
    /// `{"$base64": …}`), the names escaped once per list (``TableList/jsonKeys``).
    func writeItem(row: Int, into json: inout JSONWriter) {
        json.raw("{")
        var first = true
        for column in list.columns.indices where !list.isSecret(column) {
            if !first { json.raw(",") }
            first = false
            list.jsonKeys[column].withUnsafeBufferPointer { json.unsafeRaw(bytes: $0) }
            switch rows.value(row: row, column: column) {
            case .null: json.null()
            case .integer(let integer): json.number(Int(integer))
            case .real(let real):
                let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalText.capacity) { buffer -> Bool in
                    guard let count = DecimalText.write(real, into: buffer.baseAddress!) else { return false }
                    json.unsafeRaw(bytes: UnsafeBufferPointer(rebasing: buffer[..<count]))
                    return true
                }
                if !written { json.number(real) }
            case .text(let range): rows.withBytes(range) { json.string(utf8: $0) }
            case .blob(let range):
                json.string(after: "{\"$base64\":", rows.withBytes(range) { DatabaseListController.base64($0) })
                json.raw("}")
            }
        }
        json.raw("}")
    }
}
