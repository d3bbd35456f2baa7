import MicroHTTP

extension RowWriteError {
    /// PostgreSQL's refusal of a change as the person who asked for it reads it, by SQLSTATE: a
    /// constraint the row breaks (23502 NOT NULL, 23505 UNIQUE, 23514 CHECK, 23503 FOREIGN KEY,
    /// 23P01 exclusion) or a value its column cannot hold (class 22: 22P02 bad text, 22003 out of
    /// range, 22001 too long) is a 422 naming the column, from the error's column or constraint
    /// field, or the parameter (`$n`) its context names; the role's missing grant (42501) or a
    /// read-only server (25006) a 403 with PostgreSQL's message; a NUL character a 400; a
    /// deadlock, a serialization failure, the time limit or a server away a 503. Any other server
    /// error is the server's own failure, a ``PostgresChangeFailure`` (no DETAIL: it may hold values).
    static func from(postgres error: PostgresError, table: TableSchema, parameterColumns: [String?], timeLimit: Double) -> any Error {
        let retry = HTTPError(.serviceUnavailable, "The database is busy or away; try again shortly.", headers: ["Retry-After": "1"])
        let server: PostgresServerError
        switch error {
        case .server(let found): server = found
        case .invalidParameter:
            return badRequest("A value holds a NUL character (U+0000), which this database’s text cannot hold.")
        case .timedOut:
            return HTTPError(
                .serviceUnavailable, "The change took longer than its limit of \(Database.seconds(timeLimit)): nothing was written.",
                headers: ["Retry-After": "1"])
        case .unavailable, .connectionFailed, .invalidConnectionString: return retry
        }
        let message = String(server.message.prefix(300))
        let columns = constrainedColumns(server, table: table)
        let column = columns.count == 1 ? columns[0] : columns.first
        switch server.sqlState {
        case "23502":
            return constraint("“\(column ?? "a column")” needs a value: it cannot be NULL.", column: column)
        case "23505":
            return constraint(
                "Another row of \(table.name) already has this \(columns.isEmpty ? "key" : columns.map { "“\($0)”" }.joined(separator: ", ")): it must be unique.",
                column: column)
        case "23514":
            return constraint("The row fails the check “\(server.constraint ?? message)”.", column: columns.count == 1 ? column : nil)
        case "23503":
            if server.detail?.contains("still referenced") == true {
                return constraint("Another row refers to this one (\(message)): change or delete that row first.")
            }
            return constraint("“\(column ?? "a column")” refers to a row that does not exist.", column: column)
        case let state where state.hasPrefix("23"):
            return constraint("The change breaks a constraint of \(table.name): \(message).", column: column)
        case let state where state.hasPrefix("22"):
            let named = column ?? parameterColumn(server.context, parameterColumns)
            return constraint("\(named.map { "“\($0)” cannot hold this value" } ?? "A value does not fit its column"): \(message).", column: named)
        case "42501", "25006":
            return RowWriteError(.forbidden, "PostgreSQL refused the change: \(message).")
        case "428C9":
            return badRequest("\(message): the database generates it.", column: column)
        case "54000":
            return RowWriteError(.payloadTooLarge, "A value is larger than the database takes: \(message).")
        case "42703", "42P01":
            // Written for the schema as it was before a migration: the next request reads the new one.
            return Database.schemaChanged
        case "40001", "40P01", "55P03":
            return retry
        default:
            if server.isTransient { return retry }
            return PostgresChangeFailure(server)
        }
    }

    /// The columns of `table` the error names: its column field, the columns of the constraint it
    /// names (a UNIQUE constraint's index; PostgreSQL's default names, `table_column_check`), or
    /// those of its detail's `Key (a, b)=(…)`.
    private static func constrainedColumns(_ error: PostgresServerError, table: TableSchema) -> [String] {
        if let column = error.column, table.column(named: column) != nil { return [column] }
        if let name = error.constraint {
            if let index = table.indexes.first(where: { $0.name == name }) {
                return index.columns.filter { table.column(named: $0) != nil }
            }
            let named = table.columns.map(\.name).filter { column in
                ["_check", "_fkey", "_key", "_not_null"].contains { name == "\(table.name)_\(column)\($0)" }
            }
            if !named.isEmpty { return named }
        }
        if let detail = error.detail, let open = detail.range(of: "Key ("), let close = detail[open.upperBound...].range(of: ")=") {
            return detail[open.upperBound..<close.lowerBound].split(separator: ",").map { $0.trimmingPrefix(" ") }
                .compactMap { table.column(named: String($0))?.name }
        }
        return []
    }

    /// The column of the parameter a context names (`unnamed portal parameter $2 = '…'`).
    private static func parameterColumn(_ context: String?, _ columns: [String?]) -> String? {
        guard let context, let dollar = context.range(of: "parameter $") else { return nil }
        let digits = context[dollar.upperBound...].prefix { $0.isNumber }
        guard let number = Int(digits), number >= 1, number <= columns.count else { return nil }
        return columns[number - 1]
    }
}
