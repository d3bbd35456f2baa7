import Cellar

extension TableList {
    /// A statement's result as a list of kind view, made per request from the columns SQLite
    /// reports: its rows get cells, JSON items and CSV fields by the rules a table's rows get
    /// (``DatabaseRowCell``: the first text column titles a row, numbers align, NULL shows as such),
    /// numbered from 1 in the result, without details.
    ///
    /// A column's type is the declared type of the table column it reads directly (`INTEGER`,
    /// `TEXT`), else none: an expression's values are shown as SQLite holds each one.
    static func queryResult(columns: [ColumnSchema], path: String) -> TableList? {
        try? TableList(schema: TableSchema(name: "query", kind: .view, columns: columns), path: path, tableNames: [])
    }
}
