import CSQLite

/// The tables and views of a database that users should see, read from `sqlite_schema` and the
/// schema pragmas in one snapshot.
///
/// Left out: SQLite's own tables (`sqlite_…`), FTS5 tables (they become the ``TableSchema/searchIndex``
/// of the table they index) and the shadow tables virtual tables keep their data in. Table names
/// reach the pragmas as bound values (`pragma_table_xinfo(?)`), never as SQL text.
public struct DatabaseSchema: Sendable {
    /// Every table and view, sorted by name, letters compared case-insensitively.
    public let tables: [TableSchema]
    /// Tables and views whose columns SQLite could not describe (a view of a dropped table, a
    /// virtual table of a module this SQLite lacks), by name, with SQLite's message: left out of ``tables``.
    public let unreadable: [String: String]

    /// Reads the schema of `connection`'s main database.
    public init(connection: SQLiteConnection) throws {
        (tables, unreadable) = try connection.read { try Self.read(connection) }
    }

    /// A schema read otherwise (PostgreSQL's: ``init(postgres:deadline:)``).
    init(tables: [TableSchema], unreadable: [String: String]) {
        self.tables = tables
        self.unreadable = unreadable
    }

    /// The table or view named `name`: spelt exactly, else with ASCII letters in another case (SQLite's names are case-insensitive).
    public func table(named name: String) -> TableSchema? {
        tables.first { $0.name == name } ?? tables.first { $0.name.sqliteNameEquals(name) }
    }

    /// One row of `pragma_table_list`, with the statement that created it.
    private struct Entry {
        let name: String
        /// `table`, `view`, `virtual` or `shadow`.
        let type: String
        let withoutRowID: Bool
        let sql: String
    }

    private static func read(_ connection: SQLiteConnection) throws -> ([TableSchema], [String: String]) {
        let entries = try listEntries(connection)

        // FTS5 tables: each is a search index, hidden with its shadow tables.
        var searchIndexes: [SearchIndex] = []
        var hidden: Set<String> = []
        for entry in entries where entry.type == "virtual" {
            guard let declaration = VirtualTableDeclaration(sql: entry.sql),
                let index = SearchIndex(table: entry.name, declaration: declaration)
            else { continue }
            searchIndexes.append(index)
            hidden.insert(entry.name.sqliteFolded)
            hidden.formUnion(SearchIndex.shadowTables(of: entry.name).map(\.sqliteFolded))
        }

        var tables: [TableSchema] = []
        var unreadable: [String: String] = [:]
        var rawForeignKeys: [String: [RawForeignKey]] = [:]
        for entry in entries {
            guard entry.type != "shadow", !entry.name.sqliteFolded.hasPrefix("sqlite_"), !hidden.contains(entry.name.sqliteFolded) else {
                continue
            }
            do {
                let (table, foreignKeys) = try readTable(entry, connection)
                tables.append(table)
                rawForeignKeys[entry.name] = foreignKeys
            } catch {
                // SQLITE_ERROR is this table's fault (no such table, no such module); anything else (busy, interrupted) is not.
                guard error.resultCode == SQLITE_ERROR else { throw error }
                unreadable[entry.name] = error.message
            }
        }

        searchIndexes.sort { $0.table.sqliteFolded < $1.table.sqliteFolded }
        tables = tables.map { table in
            let keys = (rawForeignKeys[table.name] ?? []).map { $0.resolved(in: tables) }
            // External content (content='T') first, then the T_fts naming.
            let index = searchIndexes.first { $0.contentTable != nil && $0.indexes(table.name) } ?? searchIndexes.first { $0.indexes(table.name) }
            return TableSchema(
                name: table.name, kind: table.kind, columns: table.columns, withoutRowID: table.withoutRowID, isVirtual: table.isVirtual,
                foreignKeys: keys, searchIndex: index, indexes: table.indexes)
        }
        tables.sort { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
        return (tables, unreadable)
    }

    private static func listEntries(_ connection: SQLiteConnection) throws(DatabaseError) -> [Entry] {
        let statement = try connection.statement(
            """
            SELECT list.name, list.type, list.wr, coalesce(schema.sql, '')
            FROM pragma_table_list AS list LEFT JOIN sqlite_schema AS schema ON schema.name = list.name
            WHERE list.schema = 'main'
            """)
        defer { statement.reset() }
        var entries: [Entry] = []
        while try statement.step() {
            entries.append(
                Entry(
                    name: statement.text(0) ?? "", type: statement.text(1) ?? "", withoutRowID: statement.int64(2) != 0, sql: statement.text(3) ?? "")
            )
        }
        return entries
    }

    /// The table's columns, and its foreign keys as declared.
    private static func readTable(_ entry: Entry, _ connection: SQLiteConnection) throws(DatabaseError) -> (TableSchema, [RawForeignKey]) {
        let kind: TableSchema.Kind = entry.type == "view" ? .view : .table
        let isVirtual = entry.type == "virtual"
        let columns = try readColumns(of: entry.name, connection)
        let foreignKeys = kind == .table && !isVirtual ? try readForeignKeys(of: entry.name, connection) : []
        let indexes = kind == .table && !isVirtual ? try readIndexes(of: entry.name, connection) : []
        let table = TableSchema(
            name: entry.name, kind: kind, columns: columns, withoutRowID: entry.withoutRowID, isVirtual: isVirtual, indexes: indexes)
        return (table, foreignKeys)
    }

    private static func readColumns(of table: String, _ connection: SQLiteConnection) throws(DatabaseError) -> [ColumnSchema] {
        let statement = try connection.statement(
            #"SELECT name, type, "notnull", pk, hidden, dflt_value FROM pragma_table_xinfo(?1, 'main') ORDER BY cid"#)
        try statement.bind([.text(table)])
        defer { statement.reset() }
        var columns: [ColumnSchema] = []
        while try statement.step() {
            // hidden: 0 an ordinary column, 1 a virtual table's hidden one, 2 and 3 generated (virtual, stored).
            let hidden = statement.int64(4)
            if hidden == 1 { continue }
            columns.append(
                ColumnSchema(
                    name: statement.text(0) ?? "", declaredType: statement.text(1) ?? "", notNull: statement.int64(2) != 0,
                    primaryKeyPosition: Int(statement.int64(3)), isGenerated: hidden >= 2, defaultValue: statement.text(5)))
        }
        return columns
    }

    /// The table's indexes by name, each one's key columns in order (`index_xinfo`'s key columns;
    /// an expression, which the pragma does not name, as `<expression>`).
    private static func readIndexes(of table: String, _ connection: SQLiteConnection) throws(DatabaseError) -> [IndexSchema] {
        let statement = try connection.statement(
            #"""
            SELECT list.name, list."unique", list.origin, list.partial, coalesce(info.name, '<expression>')
            FROM pragma_index_list(?1, 'main') AS list, pragma_index_xinfo(list.name, 'main') AS info
            WHERE info.key ORDER BY list.name, info.seqno
            """#)
        try statement.bind([.text(table)])
        defer { statement.reset() }
        var indexes: [IndexSchema] = []
        while try statement.step() {
            let name = statement.text(0) ?? ""
            let column = statement.text(4) ?? ""
            if let last = indexes.last, last.name == name {
                indexes[indexes.count - 1] = IndexSchema(
                    name: name, columns: last.columns + [column], isUnique: last.isUnique, origin: last.origin, isPartial: last.isPartial)
                continue
            }
            let origin: IndexSchema.Origin =
                switch statement.text(2) {
                case "pk": .primaryKey
                case "u": .unique
                default: .created
                }
            indexes.append(
                IndexSchema(name: name, columns: [column], isUnique: statement.int64(1) != 0, origin: origin, isPartial: statement.int64(3) != 0))
        }
        return indexes
    }

    /// A foreign key as the pragma gives it: the referenced columns are nil when the declaration omits them.
    private struct RawForeignKey {
        var columns: [String]
        let referencedTable: String
        var referencedColumns: [String?]

        func resolved(in tables: [TableSchema]) -> ForeignKey {
            var referenced = referencedColumns.compactMap { $0 }
            if referenced.count != referencedColumns.count {
                let table = tables.first { $0.name == referencedTable } ?? tables.first { $0.name.sqliteNameEquals(referencedTable) }
                referenced = table?.primaryKey ?? []
            }
            return ForeignKey(columns: columns, referencedTable: referencedTable, referencedColumns: referenced)
        }
    }

    private static func readForeignKeys(of table: String, _ connection: SQLiteConnection) throws(DatabaseError) -> [RawForeignKey] {
        // SQLite numbers a table's foreign keys from the last declared: descending ids are the declaration's order.
        let statement = try connection.statement(
            #"SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?1, 'main') ORDER BY id DESC, seq"#)
        try statement.bind([.text(table)])
        defer { statement.reset() }
        var keys: [RawForeignKey] = []
        var lastID: Int64?
        while try statement.step() {
            let id = statement.int64(0)
            let from = statement.text(2) ?? ""
            let to = statement.text(3)
            if id == lastID, let last = keys.indices.last {
                keys[last].columns.append(from)
                keys[last].referencedColumns.append(to)
            } else {
                keys.append(RawForeignKey(columns: [from], referencedTable: statement.text(1) ?? "", referencedColumns: [to]))
                lastID = id
            }
        }
        return keys
    }
}
