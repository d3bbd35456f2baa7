import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One connection to an SQLite file: read-only unless asked, with its prepared statements cached.
///
/// Not `Sendable`: one thread at a time uses a connection (it is opened with `SQLITE_OPEN_NOMUTEX`,
/// so SQLite does not lock it either). ``ConnectionPool`` hands connections to threads one at a time.
///
/// ```swift
/// let connection = try SQLiteConnection(path: "books.sqlite")
/// let titles = try connection.statement("SELECT title FROM books WHERE year > ?")
/// try titles.bind([.integer(1900)])
/// while try titles.step() { titles.withText(0) { write($0) } }
/// ```
public final class SQLiteConnection {
    /// The path the connection was opened with.
    public let path: String
    public let isReadOnly: Bool
    /// What ``DatabaseVersion`` found in the file at its last look through this connection, with
    /// the ``dataVersion`` then (nil until it looks): `data_version` means something only compared
    /// with an earlier value of the same connection.
    var observedJournal: DatabaseVersion.Journal?
    /// The file this connection has open, once a look found it (``fileStatus()``): it stays the
    /// same for the connection's life, while its path may come to name another.
    var fileIdentity: FileIdentity?
    /// The path's status the pool took when it lent this connection (``ConnectionPool``), nil
    /// when it is not lent or the path could not be stat'ed.
    var statusWhenLent: FileStatus?
    let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// The statements handed out since the last ``resetStatements()``: the ones that may be mid-rows.
    private var handedOut: [SQLiteStatement] = []
    /// The most statements kept prepared. The SQL of a list's queries depends on the request (its
    /// filters and sort), so the cache would otherwise grow with every combination a client tries.
    public static let statementLimit = 64
    /// The monotonic time, in nanoseconds, past which the progress handler interrupts (see `withDeadline`).
    var deadline: UInt64?

    /// How long a reader waits for a writer's lock before SQLITE_BUSY, in milliseconds.
    static let busyTimeout: Int32 = 3000

    /// Opens the file at `path` and reads its schema version at once, so that a missing file, a
    /// directory or a file that is not SQLite fails here rather than at the first query.
    ///
    /// - Parameter readOnly: true (the default) opens with `SQLITE_OPEN_READONLY`: every write fails with an
    ///   error whose ``DatabaseError/isReadOnly`` is true. False opens read-write and creates the file if it
    ///   is missing (for tests and tools that build a database).
    public init(path: String, readOnly: Bool = true) throws(DatabaseError) {
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        var connection: OpaquePointer?
        let result = sqlite3_open_v2(path, &connection, access | SQLITE_OPEN_NOMUTEX, nil)
        guard let connection else {
            throw DatabaseError(extendedResultCode: SQLITE_NOMEM, message: "cannot open \(path): out of memory")
        }
        guard result == SQLITE_OK else {
            let error = Self.openError(connection, path: path)
            sqlite3_close_v2(connection)
            throw error
        }
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, Self.busyTimeout)
        // The first read of the schema is where SQLite finds that the file is a directory or not a database.
        let probe = sqlite3_exec(connection, "PRAGMA schema_version", nil, nil, nil)
        guard probe == SQLITE_OK else {
            let error = Self.openError(connection, path: path)
            sqlite3_close_v2(connection)
            throw error
        }
        self.path = path
        self.isReadOnly = readOnly
        self.handle = connection
    }

    /// SQLite's error for a failed open, with the path and, when the system gave one, its reason.
    ///
    /// A directory opens, and its first read fails as a disk I/O error: that one is reported as what it is.
    private static func openError(_ connection: OpaquePointer, path: String) -> DatabaseError {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            // SQLITE_CANTOPEN_ISDIR, a macro of an expression that Swift does not import.
            let isDirectory = SQLITE_CANTOPEN | 2 << 8
            return DatabaseError(extendedResultCode: isDirectory, message: "cannot open \(path): it is a directory")
        }
        var message = "cannot open \(path): " + String(cString: sqlite3_errmsg(connection))
        let systemError = sqlite3_system_errno(connection)
        if systemError != 0, let reason = strerror(systemError) {
            message += " (\(String(cString: reason)))"
        }
        return DatabaseError(extendedResultCode: sqlite3_extended_errcode(connection), message: message)
    }

    deinit {
        // Closed once its last statement is finalized: the cached ones go with this object, and one a
        // caller still holds goes when the caller lets go of it.
        sqlite3_close_v2(handle)
    }

    // MARK: Statements

    /// Runs `sql`, one statement or several separated by semicolons, discarding any rows: for setup and tests.
    public func execute(_ sql: String) throws(DatabaseError) {
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard result == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(result))
            throw DatabaseError(extendedResultCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// The prepared statement for `sql`, prepared once per connection and reset, with its bindings
    /// cleared, each time it is handed out.
    ///
    /// Handing out a statement again resets it: do not ask for the same SQL while still stepping
    /// through its rows.
    public func statement(_ sql: String) throws(DatabaseError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.clearBindings()
            handedOut.append(cached)
            return cached
        }
        let statement = try SQLiteStatement(connection: handle, sql: sql)
        // Past the limit the cache starts again; a statement still in a caller's hands is finalized
        // when the caller lets go of it.
        if statements.count >= Self.statementLimit { statements.removeAll(keepingCapacity: true) }
        statements[sql] = statement
        handedOut.append(statement)
        return statement
    }

    /// Resets every statement handed out since the last reset, so the connection holds no read
    /// open: the pool does it when a connection comes back.
    public func resetStatements() {
        for statement in handedOut { statement.reset() }
        handedOut.removeAll(keepingCapacity: true)
    }

    /// Whether an explicit transaction (`BEGIN`) is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The single integer the query returns (a pragma's value).
    private func integer(_ sql: String) throws(DatabaseError) -> Int64 {
        let statement = try statement(sql)
        defer { statement.reset() }
        guard try statement.step() else { throw DatabaseError(extendedResultCode: SQLITE_ERROR, message: "no row", sql: sql) }
        return statement.int64(0)
    }

    // MARK: Versions

    /// `PRAGMA data_version`: changes when another connection (in this process or another) has
    /// committed a change to the file since this connection last read; a renderer's cache is valid
    /// while it stays the same.
    public var dataVersion: Int64 {
        get throws(DatabaseError) { try integer("PRAGMA data_version") }
    }

    /// `PRAGMA schema_version`: changes when a table, view, index or trigger is created, altered or dropped.
    public var schemaVersion: Int64 {
        get throws(DatabaseError) { try integer("PRAGMA schema_version") }
    }

    /// The rows the last finished INSERT, UPDATE or DELETE of this connection changed, not
    /// counting a trigger's or a foreign key action's changes (`sqlite3_changes64`).
    public var changedRows: Int64 { sqlite3_changes64(handle) }

    // MARK: Transactions

    /// Runs `body` in one read transaction (`BEGIN DEFERRED` … `COMMIT`, `ROLLBACK` when it throws), so
    /// that all its statements see the same snapshot: a count and the page it numbers agree.
    ///
    /// Inside a transaction already, `body` simply joins it.
    public func read<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try body() }
        try step("BEGIN DEFERRED")
        let result: T
        do {
            result = try body()
        } catch {
            // An interrupted statement may have rolled the transaction back already.
            if isInTransaction { try? step("ROLLBACK") }
            throw error
        }
        try step("COMMIT")
        return result
    }

    /// Runs a statement of no rows (a transaction's BEGIN or end), cached like any other.
    private func step(_ sql: String) throws(DatabaseError) {
        let statement = try statement(sql)
        defer { statement.reset() }
        _ = try statement.step()
    }

    /// Makes the connection as a fresh one for its next user: no statement mid-rows, no transaction,
    /// no deadline, no status lent by the pool.
    func prepareForReuse() {
        resetStatements()
        if isInTransaction { try? step("ROLLBACK") }
        deadline = nil
        statusWhenLent = nil
        sqlite3_progress_handler(handle, 0, nil, nil)
        sqlite3_busy_timeout(handle, Self.busyTimeout)
    }
}
