import Cellar

extension TableList {
    /// A statement's result as a list of kind view, made per request from the columns the engine
    /// reports: its rows get cells, JSON items and CSV fields by the rules a table's rows get
    /// (``DatabaseColumnsCell``: numbers align, NULL shows as such, markup is text), numbered from 1
    /// in the result, without details; the first column heads each row.
    ///
    /// A column's type is the declared type of the table column it reads directly (`INTEGER`,
    /// `TEXT`), else none: an expression's values are shown as SQLite holds each one.
    ///
    /// - Throws: ``ConfigurationError`` only for a first column the schema could not find, which
    ///   cannot be: both are made from the same columns.
    static func queryResult(columns: [ColumnSchema], path: String) throws(ConfigurationError) -> TableList {
        // The first column heads each row, so the columns layout keeps the statement's order.
        var settings = DatabaseConfiguration.Table()
        settings.labelColumn = columns.first?.name
        settings.layout = .columns
        return try TableList(
            schema: TableSchema(name: "query", kind: .view, columns: columns), path: path, tableNames: [], configuration: settings)
    }
}
