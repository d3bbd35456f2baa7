import CSQLite

/// A prepared statement of one ``SQLiteConnection``: bind values, step through the rows, read columns.
///
/// The connection keeps it (``SQLiteConnection/statement(_:)`` hands out a cached one); it is
/// finalized when the last reference to it goes, and the connection's SQLite handle lives until
/// then (`sqlite3_close_v2`). Like the connection, it is used by one thread at a time. Column
/// indexes start at 0, as in `sqlite3_column_*`; values are bound in parameter order (`?1`, `?2`, …).
///
/// A statement that stopped on a row keeps its read transaction open (and, with a rollback journal,
/// a shared lock that holds writers off) until it is stepped to the end or ``reset()``.
public final class SQLiteStatement {
    /// The column type of the current row's value (SQLite's storage class; it can differ row to row).
    public enum ColumnType: Sendable, Hashable {
        case integer, real, text, blob, null
    }

    /// The statement's SQL, as prepared.
    public let sql: String
    private let statement: OpaquePointer

    init(connection: OpaquePointer, sql: String) throws(DatabaseError) {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            // Empty SQL (or only a comment) prepares to no statement at all, with SQLITE_OK.
            if result == SQLITE_OK { throw DatabaseError(extendedResultCode: SQLITE_MISUSE, message: "no SQL statement", sql: sql) }
            throw DatabaseError(connection: connection, sql: sql)
        }
        self.sql = sql
        self.statement = statement
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Prepares the one statement of a client's `sql`, not kept for reuse (`SQLITE_PREPARE_PERSISTENT`
    /// is for the cache). What follows it must be spaces or comments: a second statement is refused
    /// before anything runs, as SQLite alone finds where the first one ends.
    init(connection: OpaquePointer, onlyStatementOf sql: String) throws(DatabaseError) {
        var statement: OpaquePointer?
        var rest = ""
        let result = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let result = sqlite3_prepare_v3(connection, text, -1, 0, &statement, &tail)
            if let tail { rest = String(cString: tail) }
            return result
        }
        guard result == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            if result == SQLITE_OK { throw DatabaseError(extendedResultCode: SQLITE_MISUSE, message: "no SQL statement", sql: sql) }
            throw DatabaseError(connection: connection, sql: sql)
        }
        if rest.contains(where: { !$0.isWhitespace }) {
            var second: OpaquePointer?
            let found = sqlite3_prepare_v3(connection, rest, -1, 0, &second, nil)
            sqlite3_finalize(second)
            if found != SQLITE_OK || second != nil {
                sqlite3_finalize(statement)
                throw DatabaseError(
                    extendedResultCode: SQLITE_ERROR, message: "more than one statement: only one is run at a time (the first ends at its “;”)",
                    sql: sql)
            }
        }
        self.sql = sql
        self.statement = statement
    }

    private func error() -> DatabaseError {
        DatabaseError(connection: sqlite3_db_handle(statement), sql: sql)
    }

    // MARK: Binding and stepping

    /// Resets the statement and binds `values` to its parameters, in order: as many values as it has parameters.
    public func bind(_ values: [DatabaseValue]) throws(DatabaseError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        let count = Int(sqlite3_bind_parameter_count(statement))
        guard values.count == count else {
            throw DatabaseError(extendedResultCode: SQLITE_RANGE, message: "\(values.count) values for \(count) parameters", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .null:
                result = sqlite3_bind_null(statement, index)
            case .integer(let integer):
                result = sqlite3_bind_int64(statement, index, integer)
            case .real(let real):
                result = sqlite3_bind_double(statement, index, real)
            case .text(var text):
                result = text.withUTF8 { csqlite_bind_text(statement, index, $0.baseAddress, UInt64($0.count)) }
            case .blob(let bytes):
                result = bytes.withUnsafeBytes { csqlite_bind_blob(statement, index, $0.baseAddress, UInt64($0.count)) }
            }
            guard result == SQLITE_OK else { throw error() }
        }
    }

    /// Each parameter's name as written (`:name`, `@name`, `$name`), in binding order; nil for a
    /// `?` or `?NNN`. A name used twice is one parameter.
    public var parameterNames: [String?] {
        (0..<sqlite3_bind_parameter_count(statement)).map { index in
            sqlite3_bind_parameter_name(statement, index + 1).map { String(cString: $0) }
        }
    }

    /// Runs the statement to its next row: true when a row is ready to read, false when it is done.
    ///
    /// On an error the statement is reset (so it holds no lock) and the error thrown; an interrupted
    /// query throws an error whose ``DatabaseError/isInterrupted`` is true.
    public func step() throws(DatabaseError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let failure = error()
            sqlite3_reset(statement)
            throw failure
        }
    }

    /// Rewinds the statement to run again, keeping its bindings, and ends the read it had open.
    public func reset() {
        sqlite3_reset(statement)
    }

    /// Resets the statement and sets every parameter to NULL.
    func clearBindings() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    // MARK: Columns

    public var columnCount: Int { Int(sqlite3_column_count(statement)) }

    public func columnName(_ column: Int) -> String {
        String(cString: sqlite3_column_name(statement, Int32(column)))
    }

    /// The column's declared type when it reads a table's column directly (`INTEGER`, `TEXT`), else empty.
    public func declaredType(_ column: Int) -> String {
        sqlite3_column_decltype(statement, Int32(column)).map { String(cString: $0) } ?? ""
    }

    public func columnType(_ column: Int) -> ColumnType {
        switch sqlite3_column_type(statement, Int32(column)) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    /// The column as an integer, converted by SQLite's rules (NULL is 0, text is parsed).
    public func int64(_ column: Int) -> Int64 {
        sqlite3_column_int64(statement, Int32(column))
    }

    /// The column as a double, converted by SQLite's rules (NULL is 0.0, text is parsed).
    public func double(_ column: Int) -> Double {
        sqlite3_column_double(statement, Int32(column))
    }

    /// Lends the column's text as UTF-8 bytes, without making a String: a renderer writes them out as they are.
    ///
    /// The bytes are valid during `body` only. NULL lends no bytes; an integer or real lends its text form.
    public func withText<R>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        // sqlite3_column_text first, then sqlite3_column_bytes: the order SQLite documents for a stable length.
        let bytes = sqlite3_column_text(statement, Int32(column))
        let count = Int(sqlite3_column_bytes(statement, Int32(column)))
        return try body(UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
    }

    /// The column's text as a String (invalid UTF-8 repaired), or nil for NULL.
    public func text(_ column: Int) -> String? {
        if columnType(column) == .null { return nil }
        return withText(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// The column's value in its storage class.
    public func value(_ column: Int) -> DatabaseValue {
        let index = Int32(column)
        switch columnType(column) {
        case .integer:
            return .integer(sqlite3_column_int64(statement, index))
        case .real:
            return .real(sqlite3_column_double(statement, index))
        case .text:
            return .text(withText(column) { String(decoding: $0, as: UTF8.self) })
        case .blob:
            let bytes = sqlite3_column_blob(statement, index)
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let bytes, count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        case .null:
            return .null
        }
    }

    /// Steps through every remaining row and returns their values, then resets the statement.
    /// For schema code and tests: a list page reads its rows one at a time instead.
    public func allRows() throws(DatabaseError) -> [[DatabaseValue]] {
        defer { reset() }
        var rows: [[DatabaseValue]] = []
        let columns = columnCount
        while try step() {
            rows.append((0..<columns).map(value))
        }
        return rows
    }
}
