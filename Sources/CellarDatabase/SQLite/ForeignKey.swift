/// A foreign key of a table: its columns refer to a row of another table.
public struct ForeignKey: Sendable, Hashable {
    /// The referring columns, in the declaration's order.
    public let columns: [String]
    /// The referenced table, as the declaration names it.
    public let referencedTable: String
    /// The referenced columns, one for each of ``columns``. A declaration that names none refers to
    /// the referenced table's primary key, which is given here; empty when that table is missing or has none.
    public let referencedColumns: [String]

    public init(columns: [String], referencedTable: String, referencedColumns: [String]) {
        self.columns = columns
        self.referencedTable = referencedTable
        self.referencedColumns = referencedColumns
    }
}
