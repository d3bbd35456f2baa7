import TableKit

/// One table or view served as a list: its columns, the SQL that reads its rows, and what its
/// rows show and link to. Made once when the database is mounted.
final class TableList: Sendable {
    let schema: TableSchema
    /// The list's route path, as routes match it (decoded: `/my table`).
    let path: String
    let title: String
    /// The table's columns, in order: what a row shows and its JSON item holds.
    var columns: [ColumnSchema] { schema.columns }
    /// What every query selects: each column, then the rowid when it is the key.
    let selection: String
    /// `"table"`, quoted.
    let quotedName: String
    /// Where the key's columns are in the selection (empty for a view: its rows have no detail).
    let keyColumns: [Int]
    /// The key's SQL expressions (`"t"."id"`, or `"t".rowid`).
    let keyExpressions: [String]
    /// The column whose value titles a row.
    let titleColumn: Int
    /// Columns that reference another list's rows: the link's target list path.
    let links: [Int: String]
    /// Each column's field up to its value's tag, escaped once: `<div><dt>name</dt><dd`.
    let fieldOpenings: [String]
    /// Whether the table has a full-text index to search.
    var isSearchable: Bool { schema.searchIndex != nil }
    var hasKey: Bool { !keyColumns.isEmpty }

    init(schema: TableSchema, path: String, listPaths: [String: String]) {
        self.schema = schema
        self.path = path
        title = schema.name
        let quotedName = quotedIdentifier(schema.name)
        self.quotedName = quotedName
        var expressions = schema.columns.map { quotedName + "." + quotedIdentifier($0.name) }
        var keyColumns: [Int] = []
        var keyExpressions: [String] = []
        if schema.keyIsRowID, let rowID = schema.key.first {
            keyColumns = [expressions.count]
            keyExpressions = [quotedName + "." + rowID]
            expressions.append(quotedName + "." + rowID)
        } else {
            for name in schema.key {
                guard let index = schema.columns.firstIndex(where: { $0.name == name }) else { continue }
                keyColumns.append(index)
                keyExpressions.append(expressions[index])
            }
            if keyColumns.count != schema.key.count { keyColumns = [] }
        }
        selection = expressions.joined(separator: ", ")
        self.keyColumns = keyColumns
        self.keyExpressions = keyColumns.isEmpty ? [] : keyExpressions
        titleColumn = Self.titleColumn(of: schema)
        var links: [Int: String] = [:]
        for foreignKey in schema.foreignKeys where foreignKey.columns.count == 1 {
            guard let column = schema.columns.firstIndex(where: { $0.name == foreignKey.columns[0] }),
                let target = listPaths[foreignKey.referencedTable]
            else { continue }
            links[column] = target
        }
        self.links = links
        fieldOpenings = schema.columns.map { column in
            var html = HTMLWriter()
            html.raw("<div><dt>")
            html.text(column.name)
            html.raw("</dt><dd")
            return html.string
        }
    }

    /// A column whose name says it titles a row (`title`, `name`, `label`…), else the first text
    /// column outside the key, else the first column.
    static func titleColumn(of schema: TableSchema) -> Int {
        let names = ["title", "name", "label", "display_name", "full_name", "heading", "subject", "headline"]
        for name in names {
            if let index = schema.columns.firstIndex(where: { $0.name.lowercased() == name }) { return index }
        }
        if let index = schema.columns.firstIndex(where: { $0.affinity == .text && !schema.primaryKey.contains($0.name) }) {
            return index
        }
        return 0
    }

    /// The column named `name` (a sort or filter parameter), by its exact name.
    func columnIndex(named name: String) -> Int? {
        schema.columns.firstIndex { $0.name == name }
    }

    /// The column names, for messages that list what is allowed.
    var columnNames: String {
        let names = schema.columns.map(\.name)
        let shown = names.prefix(40).joined(separator: ", ")
        return names.count > 40 ? shown + ", …" : shown
    }
}
