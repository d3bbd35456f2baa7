import MicroHTTP

/// Why a change was not made, with the status it is answered with and, where it concerns one
/// column, that column (a form shows the message on its field; the JSON API lists the message).
/// Nothing was written when one is thrown: the change's transaction was rolled back.
struct RowWriteError: Error, Sendable {
    let status: HTTPStatus
    let message: String
    /// The column the message is about, when there is one.
    let column: String?

    init(_ status: HTTPStatus, _ message: String, column: String? = nil) {
        self.status = status
        self.message = message
        self.column = column
    }

    static func badRequest(_ message: String, column: String? = nil) -> RowWriteError {
        RowWriteError(.badRequest, message, column: column)
    }

    static func constraint(_ message: String, column: String? = nil) -> RowWriteError {
        RowWriteError(.unprocessableContent, message, column: column)
    }

    /// SQLite's refusal of a change as the person who asked for it reads it: a constraint the row
    /// breaks is a 422 naming the column SQLite's message names; a value too big for SQLite, 413; a
    /// file locked by another process past the busy timeout, 503. Anything else is the server's
    /// own failure, rethrown.
    static func from(_ error: DatabaseError, table: TableSchema) -> any Error {
        let constraint: Int32 = 19
        switch (error.resultCode, error.extendedResultCode) {
        case (constraint, 1299):  // SQLITE_CONSTRAINT_NOTNULL
            let column = namedColumn(after: ": ", in: error.message, table: table)
            return Self.constraint("“\(column ?? "a column")” needs a value: it cannot be NULL.", column: column)
        case (constraint, 2067), (constraint, 1555):  // UNIQUE, PRIMARYKEY
            let column = namedColumn(after: ": ", in: error.message, table: table)
            return Self.constraint(
                "Another row of \(table.name) already has this \(column.map { "“\($0)”" } ?? "key"): it must be unique.", column: column)
        case (constraint, 275):  // CHECK
            let check = error.message.split(separator: ": ", maxSplits: 1).dropFirst().first.map(String.init) ?? error.message
            let columns = table.columns.filter { check.contains($0.name) }
            return Self.constraint(
                "The row fails the check “\(check)”.", column: columns.count == 1 ? columns[0].name : nil)
        case (constraint, 787):  // FOREIGNKEY: SQLite does not say which; the writer checks each key first
            return Self.constraint("A column refers to a row that does not exist, or another row refers to this one.")
        case (constraint, 3091):  // DATATYPE: a STRICT table's
            let column = namedColumn(after: " column ", in: error.message, table: table)
            return Self.constraint(
                "“\(column ?? "a column")” cannot hold this value: \(error.message).", column: column)
        case (constraint, _):
            return Self.constraint("The change breaks a constraint of \(table.name): \(error.message).")
        case (20, _):  // SQLITE_MISMATCH: a rowid that is not an integer
            return Self.constraint("The key must be an integer: \(error.message).")
        case (18, _):  // SQLITE_TOOBIG
            return RowWriteError(.payloadTooLarge, "A value is larger than the database takes.")
        case (1, _)
        where error.message.hasPrefix("no such column") || error.message.hasPrefix("no such table")
            || error.message.contains("has no column named"):
            // Written for the schema as it was before a migration: the next request reads the new one.
            return Database.schemaChanged
        case (5, _), (6, _):  // BUSY, LOCKED
            return HTTPError(
                .serviceUnavailable, "The database is busy with another writer; try again shortly.", headers: ["Retry-After": "1"])
        default:
            return error
        }
    }

    /// The column of `table` that a SQLite message names after `marker` as `table.column` (the
    /// first, for a key of several).
    private static func namedColumn(after marker: String, in message: String, table: TableSchema) -> String? {
        guard let range = message.ranges(of: marker).last else { return nil }
        let named = message[range.upperBound...].split(separator: ",").first.map { $0.trimmingPrefix(" ") } ?? ""
        let column = named.split(separator: ".").last.map(String.init) ?? String(named)
        return table.column(named: column)?.name
    }
}
