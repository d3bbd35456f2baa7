/// An FTS5 full-text index over a table's rows: where a search of that table looks.
///
/// It is found for table `T` when an FTS5 table declares `content='T'` (external content: the
/// index holds no copy of the text), or, failing that, when an FTS5 table of its own content is
/// named `T_fts`. A search joins the two on the rowid:
///
/// ```sql
/// SELECT T.* FROM T JOIN "T_fts" ON T.<contentRowID> = "T_fts".rowid WHERE "T_fts" MATCH ?
/// ```
public struct SearchIndex: Sendable, Hashable {
    /// The FTS5 table's name.
    public let table: String
    /// The columns it indexes, in order (those declared `UNINDEXED` are left out).
    public let columns: [String]
    /// The table named by `content=`, or nil when the index keeps its own copy of the text (or, with `content=''`, none).
    public let contentTable: String?
    /// The indexed table's column that the FTS5 rowid equals: `content_rowid=`, else `rowid`.
    public let contentRowID: String

    public init(table: String, columns: [String], contentTable: String?, contentRowID: String = "rowid") {
        self.table = table
        self.columns = columns
        self.contentTable = contentTable
        self.contentRowID = contentRowID
    }

    /// The index an FTS5 table declares, or nil when `declaration` is another module's.
    init?(table: String, declaration: VirtualTableDeclaration) {
        guard declaration.module.sqliteFolded == "fts5" else { return nil }
        let options = declaration.options
        // content='' is a contentless index: no table to show rows from.
        let content = options["content"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(
            table: table,
            columns: declaration.columns.filter(\.indexed).map(\.name),
            contentTable: content,
            contentRowID: options["content_rowid"] ?? "rowid")
    }

    /// Whether this index searches `tableName`'s rows: it names the table as its content, or it
    /// keeps its own content and is named `<table>_fts`.
    func indexes(_ tableName: String) -> Bool {
        if let contentTable { return contentTable.sqliteNameEquals(tableName) }
        return table.sqliteNameEquals(tableName + "_fts")
    }

    /// The names of the tables FTS5 keeps the index in, for an FTS5 table named `name`.
    static func shadowTables(of name: String) -> [String] {
        ["data", "idx", "content", "docsize", "config"].map { name + "_" + $0 }
    }
}
