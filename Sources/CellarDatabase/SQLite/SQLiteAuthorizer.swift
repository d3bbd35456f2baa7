import ByteWriters
import CSQLite

/// What SQL a client wrote may do, decided by SQLite itself as it compiles each statement
/// (`sqlite3_set_authorizer`), not by reading the text: reading tables and views, `SELECT`,
/// functions, recursive common table expressions, and the pragmas that only describe the schema.
/// Everything else — every write and DDL, `ATTACH` and `DETACH` (which `VACUUM INTO` needs too),
/// transactions and savepoints, any other pragma, `VACUUM`, `ANALYZE`, `REINDEX` — is refused
/// while the statement is prepared, with SQLite's "not authorized" (`SQLITE_AUTH`).
///
/// With sign-in, a statement also reads no table its actor may not view (``UnreadableTables``):
/// those tables, directly or through a view, the pragmas about them and the schema table (which
/// would name them) are refused the same way.
///
/// A secret column (YAML `secret:`) is read as NULL (`SQLITE_IGNORE`), wherever the statement
/// reads it — selected, compared in a `WHERE`, through a view or a subquery — so no statement can
/// show it or test a guess against it, while `SELECT *` of its table still runs.
enum SQLiteAuthorizer {
    /// Pragmas that only read, whatever their argument, as statements (`PRAGMA table_info(t)`) or
    /// as table-valued functions (`pragma_table_info('t')`): the schema's, and `data_version`,
    /// which FTS5 reads to open its index (a `MATCH` fails without it), and which cannot be set.
    static let readingPragmas: Set<String> = [
        "table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list", "data_version",
    ]

    /// Functions refused although the connection could not run them anyway
    /// (`load_extension` is off on it): refused at compile time, with the others' message.
    static let refusedFunctions: Set<String> = ["load_extension"]

    /// SQLite's answer for one action: `SQLITE_OK` or `SQLITE_DENY`.
    ///
    /// - Parameters:
    ///   - action: SQLite's action code (`SQLITE_READ`, `SQLITE_PRAGMA`, …).
    ///   - first: the table (`READ`, `UPDATE`), the pragma's name, or nil.
    ///   - second: the column (`READ`, `UPDATE`), the function's name (`FUNCTION`), or the pragma's argument.
    static func decide(action: Int32, first: String?, second: String?) -> Int32 {
        switch action {
        case SQLITE_SELECT, SQLITE_READ, SQLITE_RECURSIVE:
            return SQLITE_OK
        case SQLITE_FUNCTION:
            return second.map { refusedFunctions.contains($0.lowercased()) } == true ? SQLITE_DENY : SQLITE_OK
        case SQLITE_PRAGMA:
            return first.map { readingPragmas.contains($0.lowercased()) } == true ? SQLITE_OK : SQLITE_DENY
        case SQLITE_UPDATE where first == "sqlite_master":
            // SQLite asks this when it first connects an eponymous virtual table (`json_each`,
            // `pragma_table_info`) for a SELECT: refused, the read fails ("vtable constructor
            // failed"). A client's own UPDATE of the schema table never gets here: SQLite refuses
            // it first ("table sqlite_master may not be modified"), and the connection is read-only
            // and defensive besides.
            return SQLITE_OK
        default:
            return SQLITE_DENY
        }
    }
}

extension SQLiteAuthorizer {
    /// The table an action would read that is in `unreadable` (the schema table's name for a read
    /// of it), or nil.
    static func unreadableTable(action: Int32, first: String?, second: String?, unreadable: Set<String>) -> String? {
        switch action {
        case SQLITE_READ:
            guard let table = first else { return nil }
            if unreadable.contains(table) { return table }
            let lowered = table.lowercased()
            return schemaTables.contains(lowered) ? lowered : nil
        case SQLITE_PRAGMA:
            guard let argument = second, unreadable.contains(argument) else { return nil }
            return argument
        default:
            return nil
        }
    }

    /// Whether an action reads a column of `secret` (each `table.column`, lowercased, as
    /// ``UnreadableTables/secretKey(table:column:)`` writes it).
    static func readsSecret(action: Int32, first: String?, second: String?, secret: Set<String>) -> Bool {
        guard action == SQLITE_READ, let table = first, let column = second else { return false }
        return secret.contains(UnreadableTables.secretKey(table: table, column: column))
    }

    /// The tables that list every table's name and SQL.
    static let schemaTables: Set<String> = ["sqlite_master", "sqlite_schema", "sqlite_temp_master", "sqlite_temp_schema"]
}

/// The tables a client statement may not read, for each query connection while one runs on it
/// (``QueryRunner``), and the first it tried to: the authorizer has no other way to know whose
/// statement it judges. Keyed by the connection's handle, which is the authorizer's context.
/// Also the secret columns the statement reads as NULL.
enum UnreadableTables {
    struct Entry {
        let tables: Set<String>
        var secret: Set<String> = []
        var refused: String?
    }

    private static let entries = Locked<[UInt: Entry]>([:])

    /// Runs `body` with `tables` unreadable on `connection`; returns what it returned, and the
    /// table the authorizer refused if it did.
    static func run<Result>(
        _ tables: Set<String>, secret: Set<String> = [], on connection: SQLiteConnection, _ body: () throws -> Result
    ) throws -> Result {
        guard !tables.isEmpty || !secret.isEmpty else { return try body() }
        let key = UInt(bitPattern: UnsafeRawPointer(connection.handle))
        entries.withLock { $0[key] = Entry(tables: tables, secret: secret) }
        defer { entries.withLock { $0[key] = nil } }
        do {
            return try body()
        } catch {
            if let refused = entries.withLock({ $0[key]?.refused }) { throw Refusal(table: refused) }
            throw error
        }
    }

    /// A statement read a table its actor may not view.
    struct Refusal: Error {
        let table: String
    }

    static func entry(forConnection key: UInt) -> Entry? {
        entries.withLock { $0[key] }
    }

    /// How a secret column is named in the set the authorizer looks it up in: SQLite's names
    /// are compared without case.
    static func secretKey(table: String, column: String) -> String {
        table.lowercased() + "\u{0}" + column.lowercased()
    }

    static func noteRefusal(of table: String, onConnection key: UInt) {
        entries.withLock { entries in
            if entries[key]?.refused == nil { entries[key]?.refused = table }
        }
    }
}

extension SQLiteConnection {
    /// Makes this connection one that runs SQL a client wrote, for good: it must have been opened
    /// read-only, and is then also `query_only`, defensive (``csqlite_defend``), attaches nothing,
    /// keeps temporary tables and sorts on disk rather than in memory, holds no value longer than
    /// `valueLimit` bytes (`randomblob(1e9)` fails with "string or blob too big"), compiles no
    /// statement longer than `statementLimit` bytes, and asks ``SQLiteAuthorizer`` about every
    /// statement it prepares.
    ///
    /// Not for the pooled list readers: their own `BEGIN` and `PRAGMA data_version` would be refused.
    func restrictToClientQueries(valueLimit: Int32, statementLimit: Int32) throws(DatabaseError) {
        guard isReadOnly else {
            throw DatabaseError(extendedResultCode: SQLITE_MISUSE, message: "a connection for client queries must be read-only")
        }
        try execute("PRAGMA query_only = 1; PRAGMA temp_store = FILE")
        let defended = csqlite_defend(handle)
        guard defended == SQLITE_OK else { throw DatabaseError(connection: handle) }
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, valueLimit)
        sqlite3_limit(handle, SQLITE_LIMIT_SQL_LENGTH, statementLimit)
        sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 0)
        // The handle is the callback's context: the key of the tables its statement may not read.
        sqlite3_set_authorizer(handle, authorizeClientStatement, UnsafeMutableRawPointer(handle))
    }
}

/// SQLite's authorizer callback: no capture; its context is the connection's handle, only compared;
/// the names are SQLite's, valid during the call.
private func authorizeClientStatement(
    _ context: UnsafeMutableRawPointer?, _ action: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?,
    _ database: UnsafePointer<CChar>?, _ trigger: UnsafePointer<CChar>?
) -> Int32 {
    let key = UInt(bitPattern: context)
    let first = first.map { String(cString: $0) }
    let second = second.map { String(cString: $0) }
    let entry = UnreadableTables.entry(forConnection: key)
    if let secret = entry?.secret, !secret.isEmpty, SQLiteAuthorizer.readsSecret(action: action, first: first, second: second, secret: secret) {
        return SQLITE_IGNORE
    }
    let unreadable = entry?.tables ?? []
    if !unreadable.isEmpty, let table = SQLiteAuthorizer.unreadableTable(action: action, first: first, second: second, unreadable: unreadable) {
        UnreadableTables.noteRefusal(of: table, onConnection: key)
        return SQLITE_DENY
    }
    return SQLiteAuthorizer.decide(action: action, first: first, second: second)
}
