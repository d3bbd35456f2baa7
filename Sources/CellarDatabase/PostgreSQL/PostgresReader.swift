/// A PostgreSQL connection lent for one read: the list code's statements, their `?` numbered
/// (`$1`, `$2`, …), each answered by the read's deadline.
struct PostgresReader: DatabaseReader {
    let connection: PostgresConnection
    let deadline: PostgresDeadline

    var dialect: SQLDialect { .postgres }

    func appendRows(of sql: String, _ values: [DatabaseValue], to rows: inout FetchedRows) throws {
        let result = try query(sql, values)
        for row in 0..<result.count { rows.append(row: row, of: result) }
    }

    func integer(_ sql: String, _ values: [DatabaseValue]) throws -> Int {
        let result = try query(sql, values)
        guard result.count > 0, result.columnCount > 0, case .integer(let integer) = result.value(row: 0, column: 0) else { return 0 }
        return Int(integer)
    }

    func labels(_ sql: String, _ values: [DatabaseValue]) throws -> [DatabaseValue: String] {
        let result = try query(sql, values)
        var labels: [DatabaseValue: String] = [:]
        for row in 0..<result.count {
            guard case .text(let label) = result.value(row: row, column: 1) else { continue }
            labels[result.value(row: row, column: 0)] = label
        }
        return labels
    }

    /// The read's snapshot as PostgreSQL writes it (`xmin:xmax:xip,…`): two snapshots that are
    /// equal see the same committed transactions, so the same data. It moves with every write
    /// anywhere in the cluster (each takes a transaction id), not only to the list's tables.
    func snapshotVersion() throws -> String? {
        let result = try query("SELECT pg_current_snapshot()::text", [])
        guard result.count > 0, case .text(let snapshot) = result.value(row: 0, column: 0) else { return nil }
        return snapshot
    }

    /// Runs a statement of no rows (a transaction's `BEGIN` or end).
    func execute(_ sql: String) throws {
        try connection.execute(sql, deadline: deadline)
    }

    private func query(_ sql: String, _ values: [DatabaseValue]) throws(PostgresError) -> PostgresRows {
        try connection.query(Self.numberingPlaceholders(sql), values.map(\.postgresText), deadline: deadline)
    }

    /// `sql` with each `?` outside quotes replaced by `$1`, `$2`, … in order. Identifiers in double
    /// quotes (a table named `a?b`) and string literals are copied as they are.
    static func numberingPlaceholders(_ sql: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(sql.utf8.count + 16)
        var quote: UInt8?
        var number = 0
        for byte in sql.utf8 {
            if let open = quote {
                if byte == open { quote = nil }
                result.append(byte)
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
                result.append(byte)
            } else if byte == UInt8(ascii: "?") {
                number += 1
                result.append(UInt8(ascii: "$"))
                result.append(contentsOf: String(number).utf8)
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension FetchedRows {
    /// Appends one row of a PostgreSQL result (its first ``columnCount`` columns), each field read
    /// by its column's type (``PostgresType``): text straight from libpq's buffer.
    mutating func append(row: Int, of result: PostgresRows) {
        for column in 0..<columnCount {
            if result.columnTypes[column] == .text, !result.isNull(row: row, column: column) {
                result.withText(row: row, column: column) { appendText($0.assumingMemoryBound(to: UInt8.self)) }
            } else {
                append(result.value(row: row, column: column))
            }
        }
    }
}

extension PostgresConnection {
    /// Ends a read's transaction after an error, so that the connection goes back to the pool idle:
    /// a `ROLLBACK` with a short deadline of its own (the read's may have passed), or, when the
    /// server does not answer it, the connection closed (made again on its next use).
    func rollBack() {
        guard isConnected else { return }
        do {
            try execute("ROLLBACK", deadline: .seconds(Self.cancelGrace))
        } catch {
            close()
        }
    }
}
