import CSQLite

/// What SQL a client wrote may do, decided by SQLite itself as it compiles each statement
/// (`sqlite3_set_authorizer`), not by reading the text: reading tables and views, `SELECT`,
/// functions, recursive common table expressions, and the pragmas that only describe the schema.
/// Everything else — every write and DDL, `ATTACH` and `DETACH` (which `VACUUM INTO` needs too),
/// transactions and savepoints, any other pragma, `VACUUM`, `ANALYZE`, `REINDEX` — is refused
/// while the statement is prepared, with SQLite's "not authorized" (`SQLITE_AUTH`).
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
        sqlite3_set_authorizer(handle, authorizeClientStatement, nil)
    }
}

/// SQLite's authorizer callback: no context, no capture; the names are SQLite's, valid during the call.
private func authorizeClientStatement(
    _ context: UnsafeMutableRawPointer?, _ action: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?,
    _ database: UnsafePointer<CChar>?, _ trigger: UnsafePointer<CChar>?
) -> Int32 {
    SQLiteAuthorizer.decide(action: action, first: first.map { String(cString: $0) }, second: second.map { String(cString: $0) })
}
