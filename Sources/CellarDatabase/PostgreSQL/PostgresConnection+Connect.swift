import CLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension PostgresConnection {
    /// Makes a libpq connection by `deadline` without blocking on the socket (`PQconnectStartParams`,
    /// then `PQconnectPoll` and `poll(2)` as libpq asks), switches it to non-blocking mode and sets
    /// the session's settings.
    ///
    /// The string is expanded by libpq (`expand_dbname`) between two settings of Cellar's: a
    /// fallback `application_name` the string may override, and `client_encoding` UTF8, which it
    /// may not (every text is read as UTF-8). The session's settings: `statement_timeout`,
    /// `bytea_output` hex and `extra_float_digits` 1 (what ``PostgresType`` reads), `DateStyle` ISO
    /// (dates and times spelt the same on every server).
    ///
    /// A failure is ``PostgresError/unavailable(connection:message:)`` when the server is away for
    /// now and ``PostgresError/connectionFailed(connection:message:)`` when it refused, or libpq
    /// could not try (see ``isAway(sqlState:reachedServer:)``).
    static func connect(_ info: PostgresConnectionInfo, statementTimeout: Double, deadline: PostgresDeadline) throws(PostgresError)
        -> OpaquePointer
    {
        let keywords = CStringArray(["fallback_application_name", "dbname", "client_encoding"], nullTerminated: true)
        let values = CStringArray(["cellar", info.connectionString, "UTF8"], nullTerminated: true)
        guard let connection = PQconnectStartParams(keywords.pointers, values.pointers, 1) else {
            throw .connectionFailed(connection: info.description, message: "out of memory")
        }
        // Verbose, so that a server's refusal carries its SQLSTATE (`FATAL:  57P03: the database
        // system is starting up`), which no other call of libpq tells about a connection attempt.
        PQsetErrorVerbosity(connection, PQERRORS_VERBOSE)
        guard PQstatus(connection) != CONNECTION_BAD else {
            // Failed before any wait: options libpq rejects (`sslmode=bogus`), or a server not
            // reached at once (a host name that does not resolve, a socket file that is not there).
            // Only libpq's ping tells the two apart.
            let message = errorMessage(connection)
            PQfinish(connection)
            throw failure(message, away: pingAttempts(info), info: info)
        }
        func failed(_ message: String, away: Bool) -> PostgresError {
            PQfinish(connection)
            return failure(message, away: away, info: info)
        }
        // libpq's advice: behave at first as if PQconnectPoll had asked to write.
        var events = Int16(POLLOUT)
        polling: while true {
            guard waitForSocket(of: connection, events: events, deadline: deadline) else {
                throw failed("no answer before the deadline", away: true)
            }
            // Still making the socket's connection (or about to, for the next host or address):
            // the server was not reached when a failure happens now.
            let stage = PQstatus(connection)
            let reachedServer = stage != CONNECTION_STARTED && stage != CONNECTION_NEEDED
            switch PQconnectPoll(connection) {
            case PGRES_POLLING_OK: break polling
            case PGRES_POLLING_READING: events = Int16(POLLIN)
            case PGRES_POLLING_WRITING: events = Int16(POLLOUT)
            default:
                let message = errorMessage(connection)
                throw failed(message, away: isAway(sqlState: sqlState(in: message), reachedServer: reachedServer))
            }
        }
        PQsetErrorVerbosity(connection, PQERRORS_DEFAULT)
        // Notices (`NOTICE: … skipping`) are not errors; libpq's default prints them on standard error.
        PQsetNoticeReceiver(connection, { _, _ in }, nil)
        guard PQsetnonblocking(connection, 1) == 0 else { throw failed(errorMessage(connection), away: true) }
        guard PQsendQuery(connection, sessionSettings(statementTimeout: statementTimeout)) == 1 else {
            throw failed(errorMessage(connection), away: true)
        }
        switch finish(connection, deadline: deadline) {
        case .done(let result, nil):
            if let result { PQclear(result) }
        case .done(let result, let error?):
            if let result { PQclear(result) }
            throw failed(error.description, away: error.isTransient)
        case .lost(let message): throw failed(message, away: true)
        case .deadlinePassed: throw failed("no answer before the deadline", away: true)
        }
        return connection
    }

    /// What every connection sets first, and sets again after a `DISCARD ALL` has reset it: the
    /// time limit, and the text formats values are read in.
    static func sessionSettings(statementTimeout: Double) -> String {
        let milliseconds = Int64(max(0, min(statementTimeout, 1e6)) * 1000)
        return "SET statement_timeout = \(milliseconds); SET bytea_output = hex; SET extra_float_digits = 1; SET DateStyle = ISO"
    }

    /// Whether a failed connection attempt means the server is away for now: it was not reached
    /// (refused, no route, a host name that does not resolve, a socket file that is not there — the
    /// deadline passing is told apart by the caller), or it refused with a SQLSTATE that says so
    /// (``PostgresServerError/isTransient``: `57P03` starting up or shutting down, `53300` too many
    /// connections). Anything else the server or libpq refused is not: the role, its password or
    /// the database (`28000`, `28P01`, `3D000`, `42501`), TLS that cannot be agreed on
    /// (`sslmode=require` against a server without it), no password to send.
    static func isAway(sqlState: String?, reachedServer: Bool) -> Bool {
        guard let sqlState else { return !reachedServer }
        return PostgresServerError.transientClasses.contains(sqlState.prefix(2))
    }

    /// ``PostgresError/unavailable(connection:message:)`` when `away`, else
    /// ``PostgresError/connectionFailed(connection:message:)``; the message redacted, without the
    /// server's source location that verbose errors add.
    static func failure(_ message: String, away: Bool, info: PostgresConnectionInfo) -> PostgresError {
        let text = info.redacting(PostgresConnectionInfo.trimmed(withoutSourceLocation(message)))
        return away ? .unavailable(connection: info.description, message: text) : .connectionFailed(connection: info.description, message: text)
    }

    /// The SQLSTATE of the last server error in a verbose libpq message (`…failed: FATAL:  28P01:
    /// password authentication failed…`), nil when the server sent none.
    static func sqlState(in message: String) -> String? {
        message.matches(of: #/:  ([0-9A-Z]{5}): /#).last.map { String($0.output.1) }
    }

    /// `message` without the lines verbose errors add for the server's source (`LOCATION:  auth_failed, auth.c:334`).
    static func withoutSourceLocation(_ message: String) -> String {
        message.split(separator: "\n", omittingEmptySubsequences: false).filter { line in line.wholeMatch(of: /[^:]+:  (\S+, )?\S+:\d+/) == nil }
            .joined(separator: "\n")
    }

    /// Whether libpq would try to connect with `info`'s options at all: its ping answers "no attempt"
    /// only for options it rejects. Called after a failure at once, when a second attempt fails at
    /// once too; `connect_timeout` bounds it otherwise (the server came up meanwhile).
    private static func pingAttempts(_ info: PostgresConnectionInfo) -> Bool {
        let keywords = CStringArray(["fallback_application_name", "dbname", "client_encoding", "connect_timeout"], nullTerminated: true)
        let values = CStringArray(["cellar", info.connectionString, "UTF8", "2"], nullTerminated: true)
        return PQpingParams(keywords.pointers, values.pointers, 1) != PQPING_NO_ATTEMPT
    }

    /// Whether an idle connection is still open: reads, without waiting, what the server sent since
    /// the last call — a notice, or the error and end of file of a connection it closed.
    static func isUsable(_ connection: OpaquePointer) -> Bool {
        guard PQstatus(connection) == CONNECTION_OK else { return false }
        let transaction = PQtransactionStatus(connection)
        guard transaction == PQTRANS_IDLE || transaction == PQTRANS_INTRANS || transaction == PQTRANS_INERROR else { return false }
        // A closed connection is readable twice: its last message, then its end of file, which only
        // the next read finds. A few rounds settle it; a stream of notices cannot hold the call.
        for _ in 0..<4 {
            guard isReadable(connection) else { return true }
            guard PQconsumeInput(connection) == 1, PQstatus(connection) == CONNECTION_OK else { return false }
            // Parses what arrived (a notice, a message of a closed connection) so that it is not taken
            // for the answer to the next query. Notifications are not used yet: dropped.
            while let notification = PQnotifies(connection) { PQfreemem(notification) }
        }
        return PQstatus(connection) == CONNECTION_OK
    }

    /// Whether the connection's socket has something to read now (end of file included).
    private static func isReadable(_ connection: OpaquePointer) -> Bool {
        let socket = PQsocket(connection)
        guard socket >= 0 else { return false }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, 0)
            if ready >= 0 { return ready > 0 }
            if errno != EINTR { return false }
        }
    }

    /// libpq's last error on `connection`.
    static func errorMessage(_ connection: OpaquePointer) -> String {
        PQerrorMessage(connection).map { String(cString: $0) } ?? "unknown error"
    }
}
