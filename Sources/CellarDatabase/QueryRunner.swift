import CSQLite
import MicroHTTP

/// Runs one read-only SQL statement a client wrote (`/-/query`) on connections of its own, and
/// reads one page of its rows.
///
/// What keeps a statement harmless is the engine's, not a reading of its text: each connection is
/// read-only and restricted (``SQLiteConnection/restrictToClientQueries(valueLimit:statementLimit:)``:
/// ``SQLiteAuthorizer`` refuses every write, `ATTACH`, pragma and `load_extension` as SQLite compiles
/// the statement); the database's query time limit stops it; and what it can hold is bounded per
/// statement — a value at ``valueLimit`` bytes, a page at ``rowCap`` rows and about ``pageByteLimit``
/// bytes of values, sorts and temporary tables on disk. The list readers never run a client's SQL,
/// so nothing a statement does is left on a connection they use.
final class QueryRunner: Sendable {
    /// The most rows one page (or the CSV) holds.
    static let rowCap = 1000
    /// The longest statement run, in UTF-8 bytes.
    static let statementLimit = 100_000
    /// The longest text or blob a statement may make or read, in bytes.
    static let valueLimit = 1_000_000
    /// A page stops once its values hold this many bytes: the next page goes on from there.
    static let pageByteLimit = 8_000_000

    let timeLimit: Double
    /// The query page's own connections, never the lists'.
    enum Connections: Sendable {
        case sqlite(ConnectionPool)
        case postgres(PostgresPool)
    }

    let connections: Connections
    /// The tables a request's actor may not view, which its statements may not read (with sign-in:
    /// set by ``App/mount(_:at:configuration:indexTitle:)``).
    let unreadableTables: @Sendable (Request) -> Set<String>
    /// The secret columns (YAML `secret:`) a SQLite statement reads as NULL, each as
    /// ``UnreadableTables/secretKey(table:column:)`` names it. Over PostgreSQL, a database with
    /// secret columns has no `/-/query` (``App/mount(_:at:configuration:indexTitle:)``).
    let secretColumns: Set<String>

    /// Opens the first query connection to a SQLite file now, so a file that cannot be restricted stops the mount.
    init(
        path: String, timeLimit: Double, connections: Int = 2, unreadableTables: @escaping @Sendable (Request) -> Set<String> = { _ in [] },
        secretColumns: Set<String> = []
    ) throws(DatabaseError) {
        self.timeLimit = timeLimit
        self.unreadableTables = unreadableTables
        self.secretColumns = secretColumns
        let pool = try ConnectionPool(path: path, maximumConnections: connections) { connection throws(DatabaseError) in
            try connection.restrictToClientQueries(valueLimit: Int32(Self.valueLimit), statementLimit: Int32(Self.statementLimit))
        }
        self.connections = .sqlite(pool)
    }

    /// Connections of its own to a PostgreSQL database, made when first needed (a server away at
    /// start is a list's concern, not the query page's).
    init(
        postgres info: PostgresConnectionInfo, timeLimit: Double, connections: Int = 2,
        unreadableTables: @escaping @Sendable (Request) -> Set<String> = { _ in [] }
    ) {
        self.timeLimit = timeLimit
        self.unreadableTables = unreadableTables
        self.secretColumns = []
        self.connections = .postgres(PostgresPool(info: info, maximumConnections: connections, statementTimeout: timeLimit))
    }

    /// One page of a statement's result.
    struct Page {
        /// The result's columns, named as SQLite names them (a repeated name gets `_2`, `_3`…).
        let columns: [ColumnSchema]
        let rows: FetchedRows
        /// The rows stepped over before the page: the offset asked for, or fewer when the result ends before it.
        let firstRow: Int
        /// Whether the statement has rows after the page.
        let hasMore: Bool
        /// Whether the page stopped at ``QueryRunner/pageByteLimit`` before its limit of rows.
        let stoppedAtByteLimit: Bool
    }

    /// Checks `sql` before anything is prepared: not empty, no NUL, not too long.
    static func check(_ sql: String) throws(HTTPError) {
        let length = sql.utf8.count
        guard length <= statementLimit else {
            throw HTTPError.payloadTooLarge(
                "The statement is \(length.formatted()) bytes long; at most \(statementLimit.formatted()) are run here.")
        }
        guard !sql.utf8.contains(0) else { throw HTTPError.badRequest("The statement holds a NUL character (U+0000), which SQL cannot hold.") }
    }

    /// Runs `sql` and reads its rows `offset..<offset + limit` (the rows before are stepped over).
    ///
    /// - Throws: ``HTTPError``: 400 with SQLite's message for a statement it refuses or cannot run
    ///   (a syntax error, an unknown table, a write, a value too long), 413 for a statement over
    ///   ``statementLimit``, 503 past the time limit or when the file cannot be read now.
    ///
    /// A statement's `:named` parameters (a canned query's) take their values from `parameters`,
    /// by name without the `:`, bound as text; a statement a client wrote has none.
    func run(_ sql: String, parameters: [String: String] = [:], offset: Int, limit: Int, for request: Request) throws -> Page {
        try Self.check(sql)
        let unreadable = unreadableTables(request)
        switch connections {
        case .postgres(let pool):
            // PostgreSQL has no authorizer to say which tables a statement reads: an actor who may
            // not view every table runs none (the README says how a role's grants can do better).
            guard unreadable.isEmpty else {
                throw HTTPError(
                    .forbidden,
                    "Your account may not view every table, and on PostgreSQL the SQL page cannot tell which tables a statement reads: it runs no SQL for you."
                )
            }
            return try runOnPostgres(sql, parameters: parameters, pool: pool, offset: offset, limit: min(limit, Self.rowCap))
        case .sqlite(let pool):
            do {
                return try pool.withConnection { connection in
                    try UnreadableTables.run(unreadable, secret: secretColumns, on: connection) {
                        try connection.withDeadline(seconds: timeLimit) {
                            try Self.read(sql, parameters: parameters, on: connection, offset: offset, limit: min(limit, Self.rowCap))
                        }
                    }
                }
            } catch let refusal as UnreadableTables.Refusal {
                throw HTTPError(
                    .forbidden,
                    SQLiteAuthorizer.schemaTables.contains(refusal.table)
                        ? "The statement reads \(refusal.table), which names tables your account may not view: it is not run for you."
                        : "The statement reads “\(refusal.table)”, a table your account may not view: it is not run.")
            } catch let error as DatabaseError {
                throw answer(for: error)
            }
        }
    }

    private static func read(_ sql: String, parameters: [String: String], on connection: SQLiteConnection, offset: Int, limit: Int)
        throws(DatabaseError) -> Page
    {
        let statement = try SQLiteStatement(connection: connection.handle, onlyStatementOf: sql)
        defer { statement.reset() }
        let names = statement.parameterNames
        if !names.isEmpty {
            var values: [DatabaseValue] = []
            for name in names {
                guard let name, let value = parameters[String(name.dropFirst())] else {
                    throw DatabaseError(
                        extendedResultCode: SQLITE_RANGE,
                        message: "the statement has a parameter (\(name ?? "?")), and a statement here takes none: write its value in")
                }
                values.append(.text(value))
            }
            try statement.bind(values)
        }
        let columns = columnSchemas(of: statement)
        var rows = FetchedRows(columnCount: columns.count, expectedRows: min(limit, 100))
        var skipped = 0
        while skipped < offset {
            guard try statement.step() else {
                return Page(columns: columns, rows: rows, firstRow: skipped, hasMore: false, stoppedAtByteLimit: false)
            }
            skipped += 1
        }
        while rows.count < limit, try statement.step() {
            rows.append(from: statement)
            if rows.bytes.count >= pageByteLimit {
                return Page(columns: columns, rows: rows, firstRow: skipped, hasMore: try statement.step(), stoppedAtByteLimit: true)
            }
        }
        let hasMore = rows.count == limit ? try statement.step() : false
        return Page(columns: columns, rows: rows, firstRow: skipped, hasMore: hasMore, stoppedAtByteLimit: false)
    }

    /// The names of a canned query's parameters (`:name`, `@name`, `$name`; nil for `?`), as SQLite
    /// finds them preparing it on a query connection — under the authorizer, so a statement that
    /// would write is refused here, at start.
    func parameterNames(of sql: String) throws -> [String?] {
        guard case .sqlite(let pool) = connections else { return [] }
        return try pool.withConnection { connection throws(DatabaseError) in
            try SQLiteStatement(connection: connection.handle, onlyStatementOf: sql).parameterNames
        }
    }

    /// The result's columns, each under a name no other takes (``unique(_:)``).
    static func columnSchemas(of statement: SQLiteStatement) -> [ColumnSchema] {
        let names = unique((0..<statement.columnCount).map(statement.columnName))
        return names.enumerated().map { column, name in ColumnSchema(name: name, declaredType: statement.declaredType(column)) }
    }

    /// The names, a repeated one given `_2`, `_3`… (`SELECT 1, 1` has two columns "1"), so that a
    /// row's JSON item keeps every value.
    static func unique(_ names: [String]) -> [String] {
        var taken = Set<String>()
        return names.map { name in
            var unique = name
            var number = 2
            while !taken.insert(unique).inserted {
                unique = "\(name)_\(number)"
                number += 1
            }
            return unique
        }
    }

    /// SQLite's error as the client's answer: a statement that ran out of time or a file that
    /// cannot be read now is a 503; anything else is about the statement, a 400 with SQLite's
    /// message (never the bound values: a client's statement has none).
    func answer(for error: DatabaseError) -> HTTPError {
        if error.isInterrupted { return overTimeLimit }
        // SQLite words a refused function "not authorized to use function: …" under SQLITE_ERROR.
        if error.resultCode == SQLITE_AUTH || error.message.hasPrefix("not authorized") {
            return .badRequest(
                "SQLite refused the statement (\(error.message)): this page only reads. Writes, schema changes, ATTACH, VACUUM, transactions, pragmas other than table_info and its kin, and load_extension are not run here."
            )
        }
        switch error.resultCode {
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_NOMEM, SQLITE_FULL, SQLITE_CORRUPT, SQLITE_NOTADB:
            return Self.unavailable
        case SQLITE_TOOBIG:
            return .badRequest(
                "SQLite stopped the statement (\(error.message)): a value here is at most \(Self.valueLimit.formatted()) bytes, a statement at most \(Self.statementLimit.formatted())."
            )
        case SQLITE_READONLY:
            return .badRequest("SQLite refused the statement (\(error.message)): this page only reads.")
        default:
            return .badRequest("SQLite could not run the statement: \(error.message).")
        }
    }

    /// A statement stopped by the time limit.
    var overTimeLimit: HTTPError {
        HTTPError(
            .serviceUnavailable,
            "The statement ran longer than the limit of \(Database.seconds(timeLimit)) and was stopped: add a LIMIT or a narrower WHERE.",
            headers: ["Retry-After": "1"])
    }

    /// A database that cannot run anything now (locked, away, out of memory or disk).
    static var unavailable: HTTPError {
        HTTPError(.serviceUnavailable, "The database cannot run statements just now; try again shortly.", headers: ["Retry-After": "1"])
    }
}
