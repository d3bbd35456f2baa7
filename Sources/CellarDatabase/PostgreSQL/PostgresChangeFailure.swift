/// A PostgreSQL error during a change that no 4xx tells (``RowWriteError/from(postgres:table:parameterColumns:timeLimit:)``):
/// the server's own failure, a 500. Its description — what the log line and a development error
/// page carry — is the SQLSTATE, the names of what it concerns and the primary message, never
/// the DETAIL, HINT, CONTEXT or statement, where PostgreSQL and triggers quote a row's values
/// (a secret column's too).
struct PostgresChangeFailure: Error, Sendable, CustomStringConvertible {
    let sqlState: String
    let table: String?
    let column: String?
    let constraint: String?
    let message: String

    init(_ error: PostgresServerError) {
        sqlState = error.sqlState
        table = error.table
        column = error.column
        constraint = error.constraint
        message = String(error.message.prefix(300))
    }

    var description: String {
        let names = [("table", table), ("column", column), ("constraint", constraint)].compactMap { name, value in
            value.map { "\(name) \($0)" }
        }
        return "PostgreSQL refused the change, SQLSTATE \(sqlState)" + (names.isEmpty ? "" : " (\(names.joined(separator: ", ")))")
            + ": \(message)"
    }
}
