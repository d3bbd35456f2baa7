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
    static func connect(_ info: PostgresConnectionInfo, statementTimeout: Double, deadline: PostgresDeadline) throws(PostgresError)
        -> OpaquePointer
    {
        let keywords = CStringArray(["fallback_application_name", "dbname", "client_encoding"], nullTerminated: true)
        let values = CStringArray(["cellar", info.connectionString, "UTF8"], nullTerminated: true)
        guard let connection = PQconnectStartParams(keywords.pointers, values.pointers, 1) else {
            throw .connectionFailed(connection: info.description, message: "out of memory")
        }
        func failure(_ message: String) -> PostgresError {
            PQfinish(connection)
            return .connectionFailed(connection: info.description, message: info.redacting(PostgresConnectionInfo.trimmed(message)))
        }
        guard PQstatus(connection) != CONNECTION_BAD else { throw failure(errorMessage(connection)) }
        // libpq's advice: behave at first as if PQconnectPoll had asked to write.
        var events = Int16(POLLOUT)
        polling: while true {
            guard waitForSocket(of: connection, events: events, deadline: deadline) else {
                throw failure("no answer before the deadline")
            }
            switch PQconnectPoll(connection) {
            case PGRES_POLLING_OK: break polling
            case PGRES_POLLING_READING: events = Int16(POLLIN)
            case PGRES_POLLING_WRITING: events = Int16(POLLOUT)
            default: throw failure(errorMessage(connection))
            }
        }
        // Notices (`NOTICE: … skipping`) are not errors; libpq's default prints them on standard error.
        PQsetNoticeReceiver(connection, { _, _ in }, nil)
        guard PQsetnonblocking(connection, 1) == 0 else { throw failure(errorMessage(connection)) }
        let milliseconds = Int64(max(0, min(statementTimeout, 1e6)) * 1000)
        let settings = "SET statement_timeout = \(milliseconds); SET bytea_output = hex; SET extra_float_digits = 1; SET DateStyle = ISO"
        guard PQsendQuery(connection, settings) == 1 else { throw failure(errorMessage(connection)) }
        switch finish(connection, deadline: deadline) {
        case .done(let result, nil):
            if let result { PQclear(result) }
        case .done(let result, let error?):
            if let result { PQclear(result) }
            throw failure(error.description)
        case .lost(let message): throw failure(message)
        case .deadlinePassed: throw failure("no answer before the deadline")
        }
        return connection
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
