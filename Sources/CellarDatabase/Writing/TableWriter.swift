import MicroHTTP

/// One table's changes — insert, update, upsert, delete — written from its schema and run as one
/// transaction each through the database's ``DatabaseWriter``.
///
/// Every identifier in the SQL is a column or table of the schema, quoted; every value is bound.
/// A column a request names is looked up in the schema first: an unknown or generated one is a
/// 400, never text in a statement. A foreign key is checked before the statement runs, so its
/// error names the column (SQLite's own says only that one failed).
struct TableWriter: TableWriting {
    let list: TableList
    let writer: DatabaseWriter

    /// What an insert does with a row whose key is taken: fail (the default), skip it
    /// (`"ignore": true`) or replace the row there (`"replace": true`).
    enum Conflict: Sendable {
        case abort, ignore, replace

        var sql: String {
            switch self {
            case .abort: "INSERT INTO "
            case .ignore: "INSERT OR IGNORE INTO "
            case .replace: "INSERT OR REPLACE INTO "
            }
        }
    }

    /// A row's values as a request gives them: each named column's index and value.
    typealias Values = [(column: Int, value: DatabaseValue)]

    /// A row as it is in the table: its columns' values, in order, and its version.
    struct StoredRow: Sendable {
        let values: [DatabaseValue]
        /// The rowid, for a table keyed by it (not one of its columns).
        let rowID: Int64?
        var version: String { RowVersion.of(values) }
    }

    // MARK: Changes

    /// Inserts `rows`, all or none, and gives back the rows as stored (their generated values and
    /// keys filled in) when `returning`.
    func insert(_ rows: [Values], conflict: Conflict, expectedVersion: String?, returning: Bool) throws -> [StoredRow] {
        try change { connection in
            var stored: [StoredRow] = []
            for var values in rows {
                if conflict == .replace, expectedVersion != nil, let key = key(of: values), let current = try row(at: key, connection: connection) {
                    try requireVersion(expectedVersion, of: current)
                }
                try placeAtEnd(&values, connection: connection)
                try checkForeignKeys(values, current: nil, connection: connection)
                let sql = list.writeStatements.sql(.insert(columns: values.map(\.column), conflict: conflict, returning: returning)) {
                    insertSQL(values, conflict: conflict, returning: returning)
                }
                let statement = try connection.statement(sql)
                try statement.bind(values.map(\.value))
                if returning {
                    while try statement.step() { stored.append(storedRow(from: statement)) }
                } else {
                    while try statement.step() {}
                }
                statement.reset()
            }
            return stored
        }
    }

    /// Changes the columns `values` names in the row at `key`, when its version is still
    /// `expectedVersion` (when given); gives back the row as it is after.
    func update(key: [DatabaseValue], values: Values, expectedVersion: String?) throws -> StoredRow {
        try change { connection in
            // With no version to compare and no foreign key to check, the row is read once, after:
            // the statement's count of changed rows says whether it was there.
            let readsBefore = expectedVersion != nil || values.isEmpty || touchesForeignKey(values)
            let current = readsBefore ? try currentRow(key, expectedVersion: expectedVersion, connection: connection) : nil
            if let current, values.isEmpty { return current }
            try checkForeignKeys(values, current: current, connection: connection)
            let statement = try connection.statement(list.writeStatements.sql(.update(columns: values.map(\.column))) { updateSQL(values) })
            try statement.bind(parameters(values, then: key))
            while try statement.step() {}
            statement.reset()
            // No row changed: there is none at the key, or a trigger kept it as it was (`RAISE(IGNORE)`).
            if current == nil, connection.changedRows == 0 { return try currentRow(key, expectedVersion: nil, connection: connection) }
            // A change of the key's own columns moves the row: read it where it is now.
            var newKey = key
            for (place, column) in list.keyColumns.enumerated() {
                if let changed = values.first(where: { $0.column == column }) { newKey[place] = changed.value }
            }
            if let after = try row(at: newKey, connection: connection) ?? current { return after }
            throw RowWriteError(.notFound, "\(schema.name) has no row with this key after the update: a trigger removed it. Nothing was written.")
        }
    }

    /// Inserts each row, or updates the row with its key when there is one: the whole batch or
    /// nothing. Every row must give the key's columns.
    func upsert(_ rows: [Values], expectedVersion: String?, returning: Bool) throws -> [StoredRow] {
        try change { connection in
            var stored: [StoredRow] = []
            for values in rows {
                guard let key = key(of: values) else {
                    throw RowWriteError.badRequest(
                        "An upsert's every row gives its key: \(schema.key.map { "“\($0)”" }.joined(separator: ", ")).")
                }
                if let current = try row(at: key, connection: connection) {
                    try requireVersion(expectedVersion, of: current)
                    let changes = values.filter { !list.keyColumns.contains($0.column) }
                    try checkForeignKeys(changes, current: current, connection: connection)
                    if !changes.isEmpty {
                        let statement = try connection.statement(
                            list.writeStatements.sql(.update(columns: changes.map(\.column))) { updateSQL(changes) })
                        try statement.bind(parameters(changes, then: key))
                        while try statement.step() {}
                        statement.reset()
                    }
                } else {
                    try checkForeignKeys(values, current: nil, connection: connection)
                    let sql = list.writeStatements.sql(.insert(columns: values.map(\.column), conflict: .abort, returning: false)) {
                        insertSQL(values, conflict: .abort, returning: false)
                    }
                    let statement = try connection.statement(sql)
                    try statement.bind(values.map(\.value))
                    while try statement.step() {}
                    statement.reset()
                }
                if returning, let row = try row(at: key, connection: connection) { stored.append(row) }
            }
            return stored
        }
    }

    /// A row deleted: as it was, and whether the delete changed other rows too (a foreign key's
    /// `ON DELETE CASCADE`, `SET NULL` or `SET DEFAULT`), which an Undo could not put back.
    struct DeletedRow: Sendable {
        let row: StoredRow
        let changedOtherRows: Bool
    }

    /// Deletes the row at `key`, when its version is still `expectedVersion` (when given); gives
    /// back the row as it was.
    @discardableResult
    func delete(key: [DatabaseValue], expectedVersion: String?) throws -> DeletedRow {
        try change { connection in
            let current = try currentRow(key, expectedVersion: expectedVersion, connection: connection)
            let cascades = try referencingRowsWithActions(to: current, connection: connection)
            let statement = try connection.statement("DELETE FROM \(list.quotedName)" + keyCondition)
            try statement.bind(key)
            while try statement.step() {}
            statement.reset()
            return DeletedRow(row: current, changedOtherRows: cascades)
        }
    }

    /// The row at `key` as it is now (an edit form's), read through the writer.
    func row(at key: [DatabaseValue]) throws -> StoredRow? {
        try change { connection in try row(at: key, connection: connection) }
    }

    // MARK: Statements

    var keyCondition: String {
        " WHERE " + list.keyExpressions.map { "\($0) = ?" }.joined(separator: " AND ")
    }

    private func updateSQL(_ values: Values) -> String {
        "UPDATE \(list.quotedName) SET " + values.map { quotedName(ofColumn: $0.column) + " = ?" }.joined(separator: ", ") + keyCondition
    }

    private func insertSQL(_ values: Values, conflict: Conflict, returning: Bool) -> String {
        var sql = conflict.sql + list.quotedName
        sql +=
            values.isEmpty
            ? " DEFAULT VALUES"
            : " (" + values.map { quotedName(ofColumn: $0.column) }.joined(separator: ", ") + ") VALUES ("
                + values.map { _ in "?" }.joined(separator: ", ") + ")"
        if returning {
            // A secret column is returned as NULL, as every read of the list selects it.
            sql +=
                " RETURNING " + list.quotedColumnNames.indices.map { list.isSecret($0) ? "NULL" : list.quotedColumnNames[$0] }.joined(separator: ", ")
            if schema.keyIsRowID, let rowID = schema.key.first { sql += ", " + rowID }
        }
        return sql
    }

    /// Whether `values` set a column of a foreign key, which is checked against the row as it was.
    private func touchesForeignKey(_ values: Values) -> Bool {
        guard !schema.foreignKeys.isEmpty else { return false }
        let columns = Set(schema.foreignKeys.flatMap(\.columns))
        return values.contains { $0.column < schema.columns.count && columns.contains(schema.columns[$0.column].name) }
    }

    /// An update's parameters: the values set, then the key's (its WHERE), in one array.
    private func parameters(_ values: Values, then key: [DatabaseValue]) -> [DatabaseValue] {
        var parameters: [DatabaseValue] = []
        parameters.reserveCapacity(values.count + key.count)
        for (_, value) in values { parameters.append(value) }
        parameters.append(contentsOf: key)
        return parameters
    }

    /// A row as a statement that selects the columns, then the rowid when it is the key, stands on it.
    private func storedRow(from statement: SQLiteStatement) -> StoredRow {
        let count = schema.columns.count
        let values = (0..<count).map { statement.value($0) }
        let rowID = schema.keyIsRowID ? statement.int64(count) : nil
        return StoredRow(values: values, rowID: rowID)
    }

    func row(at key: [DatabaseValue], connection: SQLiteConnection) throws -> StoredRow? {
        guard let rowQuery = list.rowQuery else { return nil }
        let statement = try connection.statement(rowQuery)
        defer { statement.reset() }
        try statement.bind(key)
        guard try statement.step() else { return nil }
        return storedRow(from: statement)
    }

    /// The row at `key`, refused when there is none (404) or when its version is no longer the
    /// one the request was made from (412).
    func currentRow(_ key: [DatabaseValue], expectedVersion: String?, connection: SQLiteConnection) throws -> StoredRow {
        guard let current = try row(at: key, connection: connection) else {
            throw RowWriteError(.notFound, "\(schema.name) has no row with this key.")
        }
        try requireVersion(expectedVersion, of: current)
        return current
    }

    /// Whether a row of any table refers to `row` through a foreign key whose `ON DELETE` changes
    /// it. Each column of a key of several is asked alone: a "yes" may be too careful, never wrong.
    private func referencingRowsWithActions(to row: StoredRow, connection: SQLiteConnection) throws -> Bool {
        let keys = try connection.statement(
            #"SELECT m.name, f."from", f."to" FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS f "#
                + #"WHERE m.type = 'table' AND f."table" = ?1 COLLATE NOCASE AND f.on_delete IN ('CASCADE', 'SET NULL', 'SET DEFAULT')"#)
        try keys.bind([.text(schema.name)])
        var references: [(table: String, column: String, referenced: String?)] = []
        while try keys.step() {
            references.append((keys.text(0) ?? "", keys.text(1) ?? "", keys.text(2)))
        }
        keys.reset()
        for reference in references {
            let referenced = reference.referenced ?? schema.primaryKey.first ?? ""
            let value: DatabaseValue
            if let index = schema.columns.firstIndex(where: { $0.name.lowercased() == referenced.lowercased() }) {
                value = row.values[index]
            } else if let rowID = row.rowID {
                value = .integer(rowID)
            } else {
                return true
            }
            if value == .null { continue }
            let found = try connection.integer(
                "SELECT count(*) FROM (SELECT 1 FROM \(quotedIdentifier(reference.table)) WHERE \(quotedIdentifier(reference.column)) = ? LIMIT 1)",
                [value])
            if found > 0 { return true }
        }
        return false
    }

    /// Refuses a row whose foreign key refers to no row, naming the column, before SQLite would
    /// refuse it without naming one. A key with a NULL part refers to nothing and is allowed.
    private func checkForeignKeys(_ values: Values, current: StoredRow?, connection: SQLiteConnection) throws {
        for foreignKey in schema.foreignKeys where !foreignKey.referencedColumns.isEmpty {
            let indexes = foreignKey.columns.compactMap { name in schema.columns.firstIndex { $0.name == name } }
            guard indexes.count == foreignKey.columns.count, indexes.contains(where: { index in values.contains { $0.column == index } })
            else { continue }
            let key = indexes.map { index in values.first { $0.column == index }?.value ?? current?.values[index] ?? .null }
            if key.contains(.null) { continue }
            let statement = try connection.statement(
                "SELECT 1 FROM \(quotedIdentifier(foreignKey.referencedTable)) WHERE "
                    + foreignKey.referencedColumns.map { quotedIdentifier($0) + " = ?" }.joined(separator: " AND ") + " LIMIT 1")
            defer { statement.reset() }
            try statement.bind(key)
            if try !statement.step() {
                let column = foreignKey.columns[0]
                throw RowWriteError.constraint(
                    "“\(column)” refers to a row of \(foreignKey.referencedTable) that does not exist.", column: column)
            }
        }
    }

    /// Runs `body` as one transaction, SQLite's refusals told as ``RowWriteError``s.
    func change<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        do {
            return try writer.write(body)
        } catch let error as DatabaseError {
            throw RowWriteError.from(error, table: schema)
        }
    }
}
