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
    /// The server refused the connection, or libpq could not try: a wrong password or role, no such
    /// database, TLS that cannot be agreed on, a password that libpq does not have, options it
    /// rejects. Not worth trying again unchanged. `connection` is the redacted description.
    case connectionFailed(connection: String, message: String)
    /// The deadline passed before the server answered a query. The query was cancelled; the
    /// connection stays usable when the server confirmed the cancel within a short grace, and is
    /// closed (made again on next use) when it did not.
    case timedOut(connection: String, sql: String?)
    /// The server answered with an error (a syntax error, a missing table, `statement_timeout`).
    case server(PostgresServerError)
    /// The database cannot be reached now: a connection could not reach the server (refused, no
    /// route, a host name that does not resolve, a socket file that is not there, no answer before
    /// the deadline), the server does not accept connections yet (``PostgresServerError/isTransient``:
    /// starting up, shutting down, too many connections), or a connection was lost and one attempt
    /// to make it again failed, or it was lost during the query. Worth retrying later (a list
    /// answers 503).
    case unavailable(connection: String, message: String)
    /// A parameter libpq cannot send as text: one holding a NUL character (PostgreSQL's text cannot).
    case invalidParameter(index: Int, message: String)

    /// The SQLSTATE of a server error (`42P01`, `57014`, …), nil for the others.
    public var sqlState: String? {
        if case .server(let error) = self { return error.sqlState }
        return nil
    }

    /// Whether the database is away for now rather than refusing what was asked: worth trying
    /// again later, unchanged. ``unavailable(connection:message:)``, ``timedOut(connection:sql:)``,
    /// and a server error whose SQLSTATE says so (``PostgresServerError/isTransient``).
    public var isTransient: Bool {
        switch self {
        case .unavailable, .timedOut: true
        case .server(let error): error.isTransient
        case .connectionFailed, .invalidConnectionString, .invalidParameter: false
        }
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
    /// The error's fields that name what it concerns (a constraint violation's table, column and
    /// constraint), and its context (where a bound parameter failed: `… parameter $2 …`). The
    /// context may quote a parameter's value: it is never logged.
    public var table: String?
    public var column: String?
    public var constraint: String?
    public var context: String?

    public init(sqlState: String, severity: String, message: String, detail: String? = nil, hint: String? = nil, sql: String? = nil) {
        self.sqlState = sqlState
        self.severity = severity
        self.message = message
        self.detail = detail
        self.hint = hint
        self.sql = sql
    }

    /// Whether the SQLSTATE's class says the server cannot serve now rather than that the request
    /// is wrong: 08 connection exception, 53 insufficient resources (`53300` too many connections),
    /// 57 operator intervention (`57P03` starting up or shutting down, `57P01` terminated by an
    /// administrator, `57014` cancelled by `statement_timeout`).
    public var isTransient: Bool { Self.transientClasses.contains(sqlState.prefix(2)) }

    static let transientClasses: Set<Substring> = ["08", "53", "57"]

    /// The severity, SQLSTATE, primary message, hint and statement: what a log line or an error
    /// page may carry. Never the DETAIL, where PostgreSQL and triggers quote a row's values (a
    /// secret column's too): ``detail`` is there for code that needs it.
    public var description: String {
        var text = "PostgreSQL \(severity) \(sqlState): \(message)"
        if let hint { text += " hint: \(hint)" }
        if let sql { text += " — in: \(sql)" }
        return text
    }
}
