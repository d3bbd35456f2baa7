import CSQLite

/// An error SQLite reported: its result code, its message, and the statement's SQL when there was one.
///
/// The message is SQLite's own (`sqlite3_errmsg`), or this module's for the errors it finds itself
/// (an open that failed, a wrong number of values). It never holds a bound value: SQLite's messages
/// quote the SQL text, not the parameters, so a value a client sent does not end up in a log.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_INTERRUPT`, …): the low byte of ``extendedResultCode``.
    public let resultCode: Int32
    /// The extended result code (`SQLITE_BUSY_SNAPSHOT`, `SQLITE_CANTOPEN_ISDIR`, …).
    public let extendedResultCode: Int32
    public let message: String
    /// The SQL of the statement that failed, when the error came from one.
    public let sql: String?

    public init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        self.resultCode = extendedResultCode & 0xff
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    /// The query ran past the deadline of ``SQLiteConnection/withDeadline(seconds:_:)`` and was stopped.
    public var isInterrupted: Bool { resultCode == SQLITE_INTERRUPT }
    /// Another connection holds a lock this one needed (`SQLITE_BUSY` or `SQLITE_LOCKED`), past the busy timeout.
    public var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }
    /// The file is not an SQLite database (`SQLITE_NOTADB`).
    public var isNotADatabase: Bool { resultCode == SQLITE_NOTADB }
    /// The file could not be opened: missing, a directory, or not readable (`SQLITE_CANTOPEN`).
    public var isCantOpen: Bool { resultCode == SQLITE_CANTOPEN }
    /// A write was refused because the connection or the file is read-only (`SQLITE_READONLY`).
    public var isReadOnly: Bool { resultCode == SQLITE_READONLY }

    public var description: String {
        let name = String(cString: sqlite3_errstr(extendedResultCode))
        var text = "SQLite error \(extendedResultCode) (\(name)): \(message)"
        if let sql { text += " — in: \(sql)" }
        return text
    }
}

extension DatabaseError {
    /// The last error of `connection`, as SQLite recorded it.
    init(connection: OpaquePointer, sql: String? = nil) {
        self.init(extendedResultCode: sqlite3_extended_errcode(connection), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}
