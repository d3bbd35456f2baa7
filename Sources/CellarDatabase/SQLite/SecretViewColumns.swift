import ByteWriters
import CSQLite

/// A SQLite view over a table with secret columns (YAML `secret:`) could show them: its list
/// reads the table with no authorizer. When its list is made, SQLite compiles `SELECT * FROM view`
/// and says, through an authorizer that only records, each reference to a secret column, and,
/// through each result column's origin (`sqlite3_column_origin_name`), which of its columns are a
/// secret column as it is. Those become secret in the view too; a secret read any other way — in
/// an expression (`upper(api_key)`), a condition, a join — could show something of it, and the view
/// is refused (at start, or left out after a migration) with a message naming it.
enum SecretViewColumns {
    /// The columns of `view` that show a secret column as it is, by name.
    ///
    /// - Parameter secret: the secret columns, each as ``UnreadableTables/secretKey(table:column:)`` names it.
    /// - Throws: ``ConfigurationError`` when the view reads a secret column other than as one of its columns.
    static func of(
        _ view: TableSchema, secret: Set<String>, on connection: SQLiteConnection, in file: DatabaseConfiguration
    ) throws(ConfigurationError) -> [String] {
        guard view.kind == .view, !secret.isEmpty else { return [] }
        // The callback's context is the connection's handle: the key of what it records, as for ``UnreadableTables``.
        let connectionKey = UInt(bitPattern: UnsafeRawPointer(connection.handle))
        recorded.withLock { $0[connectionKey] = Reads(secret: secret) }
        sqlite3_set_authorizer(connection.handle, recordSecretRead, UnsafeMutableRawPointer(connection.handle))
        defer {
            sqlite3_set_authorizer(connection.handle, nil, nil)
            recorded.withLock { $0[connectionKey] = nil }
        }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(connection.handle, "SELECT * FROM " + quotedIdentifier(view.name), -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        // A view that does not compile shows nothing: its list says why when it is read.
        guard result == SQLITE_OK, let statement else { return [] }
        var shown: [String] = []
        var asColumns: [String: Int] = [:]
        for index in 0..<sqlite3_column_count(statement) {
            guard let table = sqlite3_column_table_name(statement, index), let origin = sqlite3_column_origin_name(statement, index),
                let name = sqlite3_column_name(statement, index)
            else { continue }
            let key = UnreadableTables.secretKey(table: String(cString: table), column: String(cString: origin))
            guard secret.contains(key) else { continue }
            shown.append(String(cString: name))
            asColumns[key, default: 0] += 1
        }
        // Each reference is one read: more reads than columns that show it means it is used otherwise too.
        var counted: [String: Int] = [:]
        for key in recorded.withLock({ $0[connectionKey]?.found ?? [] }) { counted[key, default: 0] += 1 }
        if let (key, _) = counted.first(where: { $0.value > asColumns[$0.key, default: 0] }) {
            let column = key.replacing("\u{0}", with: ".")
            throw file.error(
                "tables.\(view.name)",
                "the view \(view.name) reads the secret column \(column) in an expression or a condition, which could show its value: "
                    + "select it as a column of its own (which is then secret too) or not at all")
        }
        return shown
    }

    /// What the authorizer saw on each connection compiling a view now: each read of a secret column.
    struct Reads {
        let secret: Set<String>
        var found: [String] = []
    }

    static let recorded = Locked<[UInt: Reads]>([:])
}

/// Records each read of a secret column and allows everything: the statement is only compiled.
private func recordSecretRead(
    _ context: UnsafeMutableRawPointer?, _ action: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?,
    _ database: UnsafePointer<CChar>?, _ trigger: UnsafePointer<CChar>?
) -> Int32 {
    guard action == SQLITE_READ, let first, let second else { return SQLITE_OK }
    let column = UnreadableTables.secretKey(table: String(cString: first), column: String(cString: second))
    SecretViewColumns.recorded.withLock { recorded in
        if recorded[UInt(bitPattern: context)]?.secret.contains(column) == true { recorded[UInt(bitPattern: context)]?.found.append(column) }
    }
    return SQLITE_OK
}
