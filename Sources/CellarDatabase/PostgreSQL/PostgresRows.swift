import CLibPQ

/// The rows a query returned: libpq's result, read in place, a field at a time or all at once.
///
/// Owns the result and frees it when released; it does not need the connection, so it may be
/// kept while the connection runs further queries. Fields are decoded by their column's type
/// (``PostgresType``): ``value(row:column:)`` makes a ``DatabaseValue``, and ``withText(row:column:_:)``
/// lends a field's bytes without a copy, for a writer that escapes them straight into a page.
public final class PostgresRows {
    private let result: OpaquePointer
    /// The number of rows.
    public let count: Int
    /// The number of columns.
    public let columnCount: Int
    /// The columns' names, as the query named them.
    public let columnNames: [String]
    /// How each column's text is read.
    let columnTypes: [PostgresType]

    /// Takes ownership of `result`, a `PGRES_TUPLES_OK` or `PGRES_COMMAND_OK` result.
    init(result: OpaquePointer) {
        self.result = result
        count = Int(PQntuples(result))
        columnCount = Int(PQnfields(result))
        columnNames = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        columnTypes = (0..<columnCount).map { PostgresType(oid: PQftype(result, Int32($0))) }
    }

    deinit { PQclear(result) }

    /// The type OID of a column (`pg_type.oid`: 23 for `int4`, 25 for `text`, …).
    public func columnTypeOID(_ column: Int) -> UInt32 {
        // As ``check(row:column:)``: the column comes from the result's own `columnCount`.
        precondition(column >= 0 && column < columnCount, "column \(column) of \(columnCount)")
        return PQftype(result, Int32(column))
    }

    public func isNull(row: Int, column: Int) -> Bool {
        check(row: row, column: column)
        return PQgetisnull(result, Int32(row), Int32(column)) == 1
    }

    /// A field as a ``DatabaseValue``: `.null` for SQL NULL, otherwise by its column's type.
    public func value(row: Int, column: Int) -> DatabaseValue {
        check(row: row, column: column)
        guard PQgetisnull(result, Int32(row), Int32(column)) == 0 else { return .null }
        return columnTypes[column].value(bytes(row: row, column: column))
    }

    /// Lends a field's text (PostgreSQL's text format, UTF-8) without a copy; empty for NULL.
    /// The bytes are valid only inside `body`.
    public func withText<T>(row: Int, column: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        check(row: row, column: column)
        return try body(bytes(row: row, column: column))
    }

    /// Every row, every field decoded.
    public var rows: [[DatabaseValue]] {
        (0..<count).map { row in (0..<columnCount).map { value(row: row, column: $0) } }
    }

    /// The command tag (`SELECT 3`, `INSERT 0 1`, `SET`).
    public var commandTag: String { String(cString: PQcmdStatus(result)) }

    private func bytes(row: Int, column: Int) -> UnsafeRawBufferPointer {
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        return UnsafeRawBufferPointer(start: PQgetvalue(result, Int32(row), Int32(column)), count: length)
    }

    /// Out of range is a programmer's error, as an array's index is: callers count from the
    /// result's own `count` and `columnCount`, never from a request. libpq would answer such a
    /// field with an empty value, which would be read as data.
    private func check(row: Int, column: Int) {
        precondition(row >= 0 && row < count && column >= 0 && column < columnCount, "field (\(row), \(column)) of \(count) × \(columnCount)")
    }
}
