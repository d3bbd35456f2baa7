/// A table or view users can list: its columns, keys and what a search looks in.
public struct TableSchema: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case table, view
    }

    public let name: String
    public let kind: Kind
    /// The columns in declaration order, generated ones included (a virtual table's hidden columns are not).
    public let columns: [ColumnSchema]
    /// The declared primary key's columns, in key order (not column order); empty when none is declared.
    public let primaryKey: [String]
    /// Declared `WITHOUT ROWID`: the primary key is the only key.
    public let withoutRowID: Bool
    /// A virtual table other than FTS5 (R*Tree, say); FTS5 tables are not listed, they are ``searchIndex``es.
    public let isVirtual: Bool
    /// The columns that identify a row, for a detail link or keyset paging: the declared primary key;
    /// else the rowid, under the first of `rowid`, `_rowid_` and `oid` that no column shadows; empty
    /// for a view, or when columns shadow all three.
    public let key: [String]
    /// ``key`` is the rowid, under one of its three names, rather than declared columns.
    public let keyIsRowID: Bool
    public let foreignKeys: [ForeignKey]
    /// The FTS5 index that searches this table's rows, if there is one.
    public let searchIndex: SearchIndex?
    /// PostgreSQL's: what a full-text search can match — the table's `tsvector` columns, in order,
    /// then its indexes over `to_tsvector(…)`, by name. Empty for SQLite's tables.
    public let textSearch: [TextSearchDocument]
    /// The table's indexes, by name (none for a view).
    public let indexes: [IndexSchema]

    public init(
        name: String, kind: Kind, columns: [ColumnSchema], withoutRowID: Bool = false, isVirtual: Bool = false,
        foreignKeys: [ForeignKey] = [], searchIndex: SearchIndex? = nil, textSearch: [TextSearchDocument] = [], indexes: [IndexSchema] = []
    ) {
        self.name = name
        self.kind = kind
        self.columns = columns
        self.primaryKey = columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
        self.withoutRowID = withoutRowID
        self.isVirtual = isVirtual
        self.foreignKeys = foreignKeys
        self.searchIndex = searchIndex
        self.textSearch = textSearch
        self.indexes = indexes
        if !primaryKey.isEmpty {
            key = primaryKey
            keyIsRowID = false
        } else if kind == .table, !withoutRowID, let rowID = Self.rowIDName(avoiding: columns.map(\.name)) {
            key = [rowID]
            keyIsRowID = true
        } else {
            key = []
            keyIsRowID = false
        }
    }

    /// The column named `name` (ASCII letters compared case-insensitively, as SQLite does).
    public func column(named name: String) -> ColumnSchema? {
        columns.first { $0.name == name } ?? columns.first { $0.name.sqliteNameEquals(name) }
    }

    /// The first of the rowid's three names that no column takes: a column called `rowid` hides the rowid under that name.
    static func rowIDName(avoiding columns: [String]) -> String? {
        ["rowid", "_rowid_", "oid"].first { name in !columns.contains { $0.sqliteNameEquals(name) } }
    }
}
