import ByteWriters

/// PostgreSQL connections for the server's threads: ``withConnection(deadline:_:)`` lends one to
/// one thread at a time, an idle one or a new one, as ``ConnectionPool`` does for SQLite.
///
/// - **At the maximum**, a checkout makes a temporary connection, closed after its use, rather than
///   wait (the worker threads already bound how many requests run at once; see ``ConnectionPool``).
/// - **Connections that broke** (a timeout the server did not confirm, a restart) go back to the
///   pool all the same: a ``PostgresConnection`` makes itself again on its next use.
/// - **No server at start.** Nothing is connected until the first checkout, so a pool can be made
///   while the database is down; each checkout that must connect tries again.
final class PostgresPool: @unchecked Sendable {
    let info: PostgresConnectionInfo
    /// The most connections kept open; beyond it, checkouts use temporary ones.
    let maximumConnections: Int
    /// `statement_timeout` of every connection, in seconds.
    let statementTimeout: Double

    private struct State {
        var idle: [PostgresConnection] = []
        /// Pooled connections made, idle or in use.
        var open = 0
    }

    private let lock = Lock()
    /// Guarded by `lock`.
    private var state = State()

    init(info: PostgresConnectionInfo, maximumConnections: Int, statementTimeout: Double) {
        self.info = info
        self.maximumConnections = max(maximumConnections, 1)
        self.statementTimeout = statementTimeout
    }

    /// Runs `body` with a connection no other thread uses meanwhile; a new one is connected by
    /// `deadline`, or the checkout throws ``PostgresError/connectionFailed(connection:message:)``.
    func withConnection<T>(deadline: PostgresDeadline, _ body: (PostgresConnection) throws -> T) throws -> T {
        let (reused, reserved) = lock.withLock { () -> (PostgresConnection?, Bool) in
            if let connection = state.idle.popLast() { return (connection, false) }
            guard state.open < maximumConnections else { return (nil, false) }
            state.open += 1
            return (nil, true)
        }
        let connection: PostgresConnection
        if let reused {
            connection = reused
        } else {
            do {
                connection = try PostgresConnection(info, statementTimeout: statementTimeout, deadline: deadline)
            } catch {
                if reserved { lock.withLock { state.open -= 1 } }
                throw error
            }
        }
        defer {
            if reused != nil || reserved { lock.withLock { state.idle.append(connection) } }
        }
        return try body(connection)
    }

    /// Connections idle in the pool now (for tests).
    var idleCount: Int { lock.withLock { state.idle.count } }
}
