import MicroHTTP

/// One PostgreSQL table's changes — insert, upsert (`ON CONFLICT`), update, delete — each one
/// transaction on a pooled connection, as the connection URL's role: its grants decide, and a
/// refusal is a 403 with PostgreSQL's message (``RowWriteError/from(postgres:table:parameterColumns:)``).
///
/// Every identifier is a column or table of the schema, quoted; every value is a `$n` parameter.
/// A row read back (`RETURNING`, or after a change) is read with the list's own selection, so its
/// ``RowVersion`` is the one its page's `ETag` holds. An update, delete or move locks the row
/// (`FOR UPDATE`) before comparing versions: of two writers on one row, the second sees the
/// first's change and is refused.
struct PostgresTableWriter: TableWriting {
    let list: TableList
    let pool: PostgresPool
    /// Seconds a change may take (the query time limit).
    let timeLimit: Double

    /// One change's transaction: its connection, and the columns of the parameters of the last
    /// statement sent, so that a value PostgreSQL cannot read (`$2`) is told on its column.
    final class Transaction {
        let connection: PostgresConnection
        let deadline: PostgresDeadline
        private(set) var parameterColumns: [String?] = []

        init(connection: PostgresConnection, deadline: PostgresDeadline) {
            self.connection = connection
            self.deadline = deadline
        }

        /// The rows of `sql`, its `?` numbered `$1`, `$2`, …, each bound to a value.
        func rows(_ sql: String, _ values: [DatabaseValue], columns: [String?] = []) throws(PostgresError) -> PostgresRows {
            parameterColumns = columns
            return try connection.query(PostgresReader.numberingPlaceholders(sql), values.map(\.postgresText), deadline: deadline)
        }
    }

    // MARK: Changes

    func insert(
        _ rows: [TableWriter.Values], conflict: TableWriter.Conflict, expectedVersion: String?, returning: Bool
    ) throws -> [TableWriter.StoredRow] {
        try change { transaction in
            var stored: [TableWriter.StoredRow] = []
            for var values in rows {
                if conflict == .replace, expectedVersion != nil, let key = key(of: values),
                    let current = try row(at: key, locking: true, transaction: transaction)
                {
                    try requireVersion(expectedVersion, of: current)
                }
                try placeAtEnd(&values, transaction: transaction)
                var sql = insertSQL(values)
                var bound = values
                switch conflict {
                case .abort: break
                case .ignore: sql += " ON CONFLICT DO NOTHING"
                case .replace:
                    let (clause, again) = onConflict(replacing: list.columns.indices.filter { !list.columns[$0].isGenerated }, values: values)
                    sql += clause
                    bound += again
                }
                if returning { sql += " RETURNING " + list.selection }
                let result = try transaction.rows(sql, bound.map(\.value), columns: names(of: bound))
                stored += storedRows(result)
            }
            return stored
        }
    }

    func update(key: [DatabaseValue], values: TableWriter.Values, expectedVersion: String?) throws -> TableWriter.StoredRow {
        try change { transaction in
            let current = try currentRow(key, expectedVersion: expectedVersion, transaction: transaction)
            guard !values.isEmpty else { return current }
            let result = try transaction.rows(
                "UPDATE \(list.quotedName) SET " + values.map { quotedName(ofColumn: $0.column) + " = ?" }.joined(separator: ", ")
                    + keyCondition + " RETURNING " + list.selection,
                values.map(\.value) + key, columns: names(of: values))
            return storedRows(result).first ?? current
        }
    }

    /// One `INSERT … ON CONFLICT (key) DO UPDATE` a row: the columns it gives are changed, the
    /// others kept, as Datasette's upsert does.
    func upsert(_ rows: [TableWriter.Values], expectedVersion: String?, returning: Bool) throws -> [TableWriter.StoredRow] {
        try change { transaction in
            var stored: [TableWriter.StoredRow] = []
            for values in rows {
                guard let key = key(of: values) else {
                    throw RowWriteError.badRequest(
                        "An upsert's every row gives its key: \(schema.key.map { "“\($0)”" }.joined(separator: ", ")).")
                }
                if expectedVersion != nil, let current = try row(at: key, locking: true, transaction: transaction) {
                    try requireVersion(expectedVersion, of: current)
                }
                let (clause, again) = onConflict(replacing: values.map(\.column), values: values)
                var sql = insertSQL(values) + clause
                if returning { sql += " RETURNING " + list.selection }
                let result = try transaction.rows(sql, (values + again).map(\.value), columns: names(of: values + again))
                stored += storedRows(result)
            }
            return stored
        }
    }

    @discardableResult
    func delete(key: [DatabaseValue], expectedVersion: String?) throws -> TableWriter.DeletedRow {
        try change { transaction in
            let current = try currentRow(key, expectedVersion: expectedVersion, transaction: transaction)
            let cascades = try referencingRowsWithActions(to: current, transaction: transaction)
            _ = try transaction.rows("DELETE FROM \(list.quotedName)" + keyCondition, key)
            return TableWriter.DeletedRow(row: current, changedOtherRows: cascades)
        }
    }

    func row(at key: [DatabaseValue]) throws -> TableWriter.StoredRow? {
        try change { transaction in try row(at: key, locking: false, transaction: transaction) }
    }

    // MARK: Statements

    var keyCondition: String {
        " WHERE " + list.keyExpressions.map { "\($0) = ?" }.joined(separator: " AND ")
    }

    private func names(of values: TableWriter.Values) -> [String?] {
        values.map { $0.column < schema.columns.count ? schema.columns[$0.column].name : nil }
    }

    private func insertSQL(_ values: TableWriter.Values) -> String {
        "INSERT INTO " + list.quotedName
            + (values.isEmpty
                ? " DEFAULT VALUES"
                : " (" + values.map { quotedName(ofColumn: $0.column) }.joined(separator: ", ") + ") VALUES ("
                    + values.map { _ in "?" }.joined(separator: ", ") + ")")
    }

    /// `ON CONFLICT (key) DO UPDATE SET` each of `columns` but the key's to the row's new value,
    /// and the values its `?`s bind, after the insert's. A secret column is set from the value
    /// given (or its default), not read from `EXCLUDED`: reading it there takes SELECT on it, which
    /// a role kept from reading secrets has not.
    private func onConflict(replacing columns: [Int], values: TableWriter.Values) -> (String, TableWriter.Values) {
        let key = list.keyColumns.map { quotedName(ofColumn: $0) }.joined(separator: ", ")
        let changed = columns.filter { !list.keyColumns.contains($0) }
        guard !changed.isEmpty else { return (" ON CONFLICT (\(key)) DO NOTHING", []) }
        var again: TableWriter.Values = []
        let assignments = changed.map { column -> String in
            let name = quotedName(ofColumn: column)
            guard list.isSecret(column) else { return "\(name) = EXCLUDED.\(name)" }
            guard let given = values.first(where: { $0.column == column }) else { return "\(name) = DEFAULT" }
            again.append(given)
            return "\(name) = ?"
        }
        return (" ON CONFLICT (\(key)) DO UPDATE SET " + assignments.joined(separator: ", "), again)
    }

    /// Rows read with the list's selection, as a page reads them: the same values, so the same version.
    private func storedRows(_ result: PostgresRows) -> [TableWriter.StoredRow] {
        var rows = FetchedRows(columnCount: list.selectedColumnCount, expectedRows: result.count)
        for row in 0..<result.count { rows.append(row: row, of: result) }
        return (0..<rows.count).map { row in
            TableWriter.StoredRow(values: list.columns.indices.map { rows.databaseValue(row: row, column: $0) }, rowID: nil)
        }
    }

    func row(at key: [DatabaseValue], locking: Bool, transaction: Transaction) throws -> TableWriter.StoredRow? {
        guard let rowQuery = list.rowQuery else { return nil }
        return storedRows(try transaction.rows(rowQuery + (locking ? " FOR UPDATE" : ""), key)).first
    }

    /// The row at `key`, locked until the change commits; refused when there is none (404) or when
    /// its version is no longer the one the request was made from (412).
    func currentRow(_ key: [DatabaseValue], expectedVersion: String?, transaction: Transaction) throws -> TableWriter.StoredRow {
        guard let current = try row(at: key, locking: true, transaction: transaction) else {
            throw RowWriteError(.notFound, "\(schema.name) has no row with this key.")
        }
        try requireVersion(expectedVersion, of: current)
        return current
    }

    /// Whether a row refers to `row` through a foreign key whose `ON DELETE` changes it (CASCADE,
    /// SET NULL, SET DEFAULT). A table this role cannot read counts as one: a "yes" may be too
    /// careful, never wrong. Each column of a key of several is asked alone, as SQLite's writer does.
    private func referencingRowsWithActions(to row: TableWriter.StoredRow, transaction: Transaction) throws -> Bool {
        let references = try transaction.rows(
            """
            SELECT c.conrelid::regclass::text, a.attname::text, f.attname::text, pg_catalog.has_table_privilege(c.conrelid, 'SELECT')
            FROM pg_catalog.pg_constraint AS c CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(col, fcol)
            JOIN pg_catalog.pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = k.col
            JOIN pg_catalog.pg_attribute AS f ON f.attrelid = c.confrelid AND f.attnum = k.fcol
            WHERE c.contype = 'f' AND c.confrelid = ?::regclass AND c.confdeltype IN ('c', 'n', 'd')
            """, [.text(list.quotedName)]
        ).rows
        for reference in references {
            guard case .text(let table) = reference[0], case .text(let column) = reference[1], case .text(let referenced) = reference[2],
                let index = schema.columns.firstIndex(where: { $0.name == referenced })
            else { return true }
            if reference[3] != .integer(1) { return true }
            let value = row.values[index]
            if value == .null { continue }
            // The table's name as `regclass` writes it: quoted where it must be, from the catalogue.
            let found = try transaction.rows("SELECT 1 FROM \(table) WHERE \(quotedIdentifier(column)) = ? LIMIT 1", [value])
            if found.count > 0 { return true }
        }
        return false
    }

    /// Runs `body` as one transaction, PostgreSQL's refusals told as ``RowWriteError``s.
    func change<T>(_ body: (Transaction) throws -> T) throws -> T {
        let deadline = PostgresDeadline.seconds(timeLimit)
        var parameterColumns: [String?] = []
        do {
            return try pool.withConnection(deadline: deadline) { connection in
                let transaction = Transaction(connection: connection, deadline: deadline)
                try connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED, READ WRITE", deadline: deadline)
                do {
                    let result = try body(transaction)
                    try connection.execute("COMMIT", deadline: deadline)
                    return result
                } catch {
                    parameterColumns = transaction.parameterColumns
                    connection.rollBack()
                    throw error
                }
            }
        } catch let error as PostgresError {
            let refusal = RowWriteError.from(postgres: error, table: schema, parameterColumns: parameterColumns, timeLimit: timeLimit)
            // PostgreSQL's message may quote the value (22P02's `invalid input syntax … "…"`): a secret's is never written back.
            if let refusal = refusal as? RowWriteError, let column = refusal.column,
                let index = schema.columns.firstIndex(where: { $0.name == column }), list.isSecret(index)
            {
                throw RowWriteError(refusal.status, "“\(column)” is secret: the database refused the value given.", column: column)
            }
            throw refusal
        }
    }
}
