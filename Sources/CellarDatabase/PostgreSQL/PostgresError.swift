/// What can go wrong talking to PostgreSQL, typed so that a caller can tell a client's mistake
/// from a database that is away.
///
/// No case holds a password: every text about a connection is its redacted description
/// (``PostgresConnectionInfo/description``), and messages from libpq and the server pass through
/// ``PostgresConnectionInfo/redacting(_:)`` first. A server's message may quote a bound value
/// (`invalid input syntax for type integer: "abc"`), as PostgreSQL's do: validate what a client
/// sends before binding it when the message goes to a log.
public enum PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection string is neither a `postgres://` URL nor a `key=value` string libpq accepts.
    case invalidConnectionString(message: String)
    /// A connection could not be made: refused, an unknown host, a wrong password, TLS, or the
    /// deadline passed before the server answered. `connection` is the redacted description.
    case connectionFailed(connection: String, message: String)
    /// The deadline passed before the server answered a query. The query was cancelled; the
    /// connection stays usable when the server confirmed the cancel within a short grace, and is
    /// closed (made again on next use) when it did not.
    case timedOut(connection: String, sql: String?)
    /// The server answered with an error (a syntax error, a missing table, `statement_timeout`).
    case server(PostgresServerError)
    /// The database cannot be reached now: the connection was lost and one attempt to make it again
    /// failed, or it was lost during the query. Worth retrying later (a list answers 503).
    case unavailable(connection: String, message: String)
    /// A parameter libpq cannot send as text: one holding a NUL character (PostgreSQL's text cannot).
    case invalidParameter(index: Int, message: String)

    /// The SQLSTATE of a server error (`42P01`, `57014`, …), nil for the others.
    public var sqlState: String? {
        if case .server(let error) = self { return error.sqlState }
        return nil
    }

    public var description: String {
        switch self {
        case .invalidConnectionString(let message): "invalid PostgreSQL connection string: \(message)"
        case .connectionFailed(let connection, let message): "cannot connect to PostgreSQL (\(connection)): \(message)"
        case .timedOut(let connection, let sql):
            "PostgreSQL did not answer in time (\(connection))" + (sql.map { " — in: \($0)" } ?? "")
        case .server(let error): error.description
        case .unavailable(let connection, let message): "PostgreSQL is unavailable (\(connection)): \(message)"
        case .invalidParameter(let index, let message): "parameter $\(index + 1) cannot be sent: \(message)"
        }
    }
}

/// An error the server reported (an `ErrorResponse`): its SQLSTATE and fields, and the SQL it came from.
public struct PostgresServerError: Sendable, Equatable, CustomStringConvertible {
    /// The five-character SQLSTATE code (`42P01` undefined table, `57014` query cancelled, …).
    public let sqlState: String
    /// `ERROR`, `FATAL` or `PANIC`, in English whatever the server's language.
    public let severity: String
    /// The primary message.
    public let message: String
    public let detail: String?
    public let hint: String?
    /// The SQL of the statement that failed.
    public let sql: String?

    public init(sqlState: String, severity: String, message: String, detail: String? = nil, hint: String? = nil, sql: String? = nil) {
        self.sqlState = sqlState
        self.severity = severity
        self.message = message
        self.detail = detail
        self.hint = hint
        self.sql = sql
    }

    public var description: String {
        var text = "PostgreSQL \(severity) \(sqlState): \(message)"
        if let detail { text += " (\(detail))" }
        if let hint { text += " hint: \(hint)" }
        if let sql { text += " — in: \(sql)" }
        return text
    }
}
