import CLibPQ

/// One connection to PostgreSQL, for the thread that uses it: synchronous calls, each bounded by a
/// deadline, on a libpq connection in non-blocking mode.
///
/// Not `Sendable`: libpq connections are not shared between threads, so each of libmicrohttpd's
/// worker threads that serves a list holds its own (a pool lends one to one thread at a time).
///
/// - **Queries** are prepared once per connection and SQL text (`PQsendPrepare`), then run with
///   their parameters as text (`PQsendQueryPrepared`); both are sent without blocking and their
///   answers awaited with `poll(2)` on the connection's socket until the deadline.
/// - **The deadline.** When it passes, a cancel request goes to the server (on a thread of its own:
///   ``PostgresCancel``) and the connection waits a short grace (``cancelGrace``) for the query to
///   end. If it ends, the connection is usable again; if not (the server has stopped answering),
///   the connection is closed. Either way the call throws ``PostgresError/timedOut(connection:sql:)``.
///   `statement_timeout` is also set on every connection, so a query the server goes on running
///   after the connection is closed stops by itself.
/// - **Reconnecting.** Before each call the connection checks, without waiting, whether the server
///   closed it while it was idle (a restart, `pg_terminate_backend`). A closed connection is made
///   again once, within the call's deadline; if that fails, the call throws
///   ``PostgresError/unavailable(connection:message:)``, as it does when the connection is lost
///   during the call. The next call tries again.
///
/// Connecting is non-blocking too (`PQconnectStartParams`, `PQconnectPoll`), except for the host
/// name's lookup, which libpq does with `getaddrinfo`: a `hostaddr` avoids it.
///
/// ```swift
/// let info = try PostgresConnectionInfo("postgres://cellar@db.internal/books?sslmode=require")
/// let connection = try PostgresConnection(info, deadline: .seconds(5))
/// let rows = try connection.query("SELECT title FROM books WHERE year > $1", ["1900"], deadline: .seconds(2))
/// ```
public final class PostgresConnection {
    public let info: PostgresConnectionInfo
    /// `statement_timeout` of every connection made, in seconds (0: none).
    public let statementTimeout: Double
    /// The libpq connection, nil once closed (made again on next use).
    var handle: OpaquePointer?
    /// The names of the statements prepared on the current connection, by SQL text.
    var statements: [String: String] = [:]
    /// The number in the next statement name (`cellar_1`, …); never reused on one connection object.
    var nextStatementNumber = 1
    /// How many connections this object has made: 1 after `init`, one more for each reconnect.
    public private(set) var connectionCount = 0

    /// The most statements kept prepared; past it they are all deallocated and the cache starts
    /// again (the SQL of a list's queries depends on the request, as SQLite's cache notes).
    public static let statementLimit = 64
    /// How long, past the deadline, a connection waits for the server to confirm a cancel before it closes.
    public static let cancelGrace: Double = 1

    /// Connects, or throws ``PostgresError/unavailable(connection:message:)`` when the server is away
    /// (a refused connection, an unknown host, no answer before `deadline`, a server starting up)
    /// and ``PostgresError/connectionFailed(connection:message:)`` when it refused (a wrong password,
    /// no such database) or libpq would not try.
    ///
    /// - Parameter statementTimeout: seconds, set as `statement_timeout` on this connection and
    ///   every one that replaces it (0: none).
    public init(_ info: PostgresConnectionInfo, statementTimeout: Double = 30, deadline: PostgresDeadline) throws(PostgresError) {
        self.info = info
        self.statementTimeout = statementTimeout
        handle = try Self.connect(info, statementTimeout: statementTimeout, deadline: deadline)
        connectionCount = 1
    }

    deinit { if let handle { PQfinish(handle) } }

    /// Whether a connection is open (it may still have been closed by the server since the last call).
    public var isConnected: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// The server process serving this connection (`pg_backend_pid()`), nil when closed.
    public var backendProcessID: Int32? { handle.map { PQbackendPID($0) } }

    /// The server's version as a number (150018 for 15.18), nil when closed.
    public var serverVersion: Int? { handle.map { Int(PQserverVersion($0)) } }

    /// The statements prepared on the current connection.
    public var preparedStatementCount: Int { statements.count }

    // MARK: Queries

    /// Runs `sql` as a prepared statement with `parameters` bound as text (`$1`, `$2`, …; nil is SQL
    /// NULL; the server infers their types, so cast where it cannot: `$1::int8`) and returns its rows.
    ///
    /// The statement is prepared on first use on this connection and reused after. When the server
    /// no longer knows it (a `DEALLOCATE`) or its cached plan no longer fits (a table altered under
    /// it: SQLSTATE 0A000), it is prepared again and run once more outside a transaction. Inside
    /// one, which the error has aborted, that is ``PostgresError/unavailable(connection:message:)``
    /// (worth trying again: the statement is prepared afresh on its next use).
    public func query(_ sql: String, _ parameters: [String?] = [], deadline: PostgresDeadline) throws(PostgresError) -> PostgresRows {
        for (index, parameter) in parameters.enumerated() where parameter?.utf8.contains(0) == true {
            throw .invalidParameter(index: index, message: "it holds a NUL character, which PostgreSQL's text cannot")
        }
        guard !deadline.hasPassed else { throw .timedOut(connection: info.description, sql: sql) }
        _ = try usableConnection(deadline: deadline)
        var prepareAgain = true
        while true {
            // Read again on each round: a failed DEALLOCATE below may have closed the connection.
            guard let connection = handle else { throw .unavailable(connection: info.description, message: "the connection was lost") }
            let wasPrepared = statements[sql] != nil
            let name = try preparedStatement(sql, on: connection, deadline: deadline)
            do throws(PostgresError) {
                let values = CStringArray(parameters)
                let sent = PQsendQueryPrepared(connection, name, Int32(parameters.count), values.pointers, nil, nil, 0)
                return try awaitRows(sent: sent == 1, on: connection, sql: sql, deadline: deadline)
            } catch .server(let error) where error.sqlState == "26000" || error.sqlState == "0A000" {
                // 26000: no such prepared statement; 0A000: "cached plan must not change result type".
                statements[sql] = nil
                // Just prepared, a 0A000 is a feature PostgreSQL lacks, not a stale plan.
                guard wasPrepared, prepareAgain else { throw .server(error) }
                guard PQtransactionStatus(connection) == PQTRANS_IDLE else {
                    throw .unavailable(connection: info.description, message: "a table changed under a prepared statement: \(error.message)")
                }
                _ = try? awaitRows(sent: PQsendQuery(connection, "DEALLOCATE \(name)") == 1, on: connection, sql: nil, deadline: deadline)
                prepareAgain = false
            }
        }
    }

    /// Runs `sql` with the simple query protocol: no parameters, one statement or several separated
    /// by semicolons, any rows discarded. For set-up and tests; lists use ``query(_:_:deadline:)``.
    public func execute(_ sql: String, deadline: PostgresDeadline) throws(PostgresError) {
        guard !deadline.hasPassed else { throw .timedOut(connection: info.description, sql: sql) }
        let connection = try usableConnection(deadline: deadline)
        _ = try awaitRows(sent: PQsendQuery(connection, sql) == 1, on: connection, sql: sql, deadline: deadline)
    }

    /// The name of `sql`'s prepared statement on `connection`, preparing it first if needed.
    private func preparedStatement(_ sql: String, on connection: OpaquePointer, deadline: PostgresDeadline) throws(PostgresError) -> String {
        if let name = statements[sql] { return name }
        if statements.count >= Self.statementLimit {
            _ = try awaitRows(sent: PQsendQuery(connection, "DEALLOCATE ALL") == 1, on: connection, sql: nil, deadline: deadline)
            statements.removeAll(keepingCapacity: true)
        }
        let name = "cellar_\(nextStatementNumber)"
        nextStatementNumber += 1
        _ = try awaitRows(sent: PQsendPrepare(connection, name, sql, 0, nil) == 1, on: connection, sql: sql, deadline: deadline)
        statements[sql] = name
        return name
    }

    // MARK: The connection's life

    /// The open connection, after checking that the server has not closed it; made again when it
    /// has, once, or ``PostgresError/unavailable(connection:message:)``.
    private func usableConnection(deadline: PostgresDeadline) throws(PostgresError) -> OpaquePointer {
        if let handle {
            if Self.isUsable(handle) { return handle }
            close()
        }
        do {
            let connection = try Self.connect(info, statementTimeout: statementTimeout, deadline: deadline)
            handle = connection
            connectionCount += 1
            return connection
        } catch {
            let reason =
                switch error {
                case .connectionFailed(_, let message), .unavailable(_, let message): message
                default: error.description
                }
            throw .unavailable(connection: info.description, message: reason)
        }
    }

    /// Closes the connection; the next call makes a new one. Its prepared statements go with it.
    func close() {
        if let handle { PQfinish(handle) }
        handle = nil
        statements.removeAll()
    }
}
