import CLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension PostgresConnection {
    /// How awaiting a command's results ended.
    enum Finished {
        /// Every result was read and the connection is idle again: the last result with rows or a
        /// command's status (the caller frees it), and the first error the server reported.
        case done(OpaquePointer?, PostgresServerError?)
        /// The connection broke (libpq's message): it must be closed.
        case lost(String)
        /// The deadline passed first: the command may still be running.
        case deadlinePassed
    }

    /// Awaits the rows of a command just sent (`sent`: what the `PQsend…` call returned), closing the
    /// connection when it breaks and cancelling the command at the deadline.
    func awaitRows(sent: Bool, on connection: OpaquePointer, sql: String?, deadline: PostgresDeadline) throws(PostgresError) -> PostgresRows {
        guard sent else { throw lost(Self.errorMessage(connection)) }
        switch Self.finish(connection, deadline: deadline) {
        case .done(let result, nil):
            guard let result else { throw lost("no result from the server") }
            return PostgresRows(result: result)
        case .done(let result, let error?):
            if let result { PQclear(result) }
            throw .server(redacted(error, sql: sql))
        case .lost(let message):
            throw lost(message)
        case .deadlinePassed:
            // The connection stays only if, within the grace, the command ends and the server has
            // taken the cancel request (one still on its way would cancel the next command).
            let grace = PostgresDeadline.seconds(Self.cancelGrace)
            var confirmed = false
            if let cancel = PostgresCancel.send(for: connection), case .done(let result, _) = Self.finish(connection, deadline: grace) {
                if let result { PQclear(result) }
                confirmed = cancel.wait(until: grace)
            }
            if !confirmed { close() }
            throw .timedOut(connection: info.description, sql: sql)
        }
    }

    /// Closes the broken connection and says why, as ``PostgresError/unavailable(connection:message:)``.
    private func lost(_ message: String) -> PostgresError {
        close()
        return .unavailable(connection: info.description, message: info.redacting(PostgresConnectionInfo.trimmed(message)))
    }

    private func redacted(_ error: PostgresServerError, sql: String?) -> PostgresServerError {
        var redacted = PostgresServerError(
            sqlState: error.sqlState, severity: error.severity, message: info.redacting(error.message), detail: error.detail.map(info.redacting),
            hint: error.hint.map(info.redacting), sql: sql.map(info.redacting))
        (redacted.table, redacted.column, redacted.constraint) = (error.table, error.column, error.constraint)
        redacted.context = error.context.map(info.redacting)
        return redacted
    }

    /// Sends what libpq has queued and reads every result of the command, waiting on the socket
    /// with `poll(2)` until `deadline`.
    static func finish(_ connection: OpaquePointer, deadline: PostgresDeadline) -> Finished {
        // In non-blocking mode a command may be only partly sent: flush it, reading meanwhile (the
        // server may be writing to us and waiting for its reads).
        while true {
            let flushed = PQflush(connection)
            if flushed == 0 { break }
            if flushed < 0 { return .lost(errorMessage(connection)) }
            guard waitForSocket(of: connection, events: Int16(POLLIN | POLLOUT), deadline: deadline) else { return .deadlinePassed }
            if PQconsumeInput(connection) == 0 { return .lost(errorMessage(connection)) }
        }
        var last: OpaquePointer?
        var firstError: PostgresServerError?
        var broken: String?
        while true {
            while PQisBusy(connection) == 1 {
                guard waitForSocket(of: connection, events: Int16(POLLIN), deadline: deadline) else {
                    if let last { PQclear(last) }
                    return .deadlinePassed
                }
                if PQconsumeInput(connection) == 0 {
                    if let last { PQclear(last) }
                    return .lost(errorMessage(connection))
                }
            }
            guard let result = PQgetResult(connection) else { break }
            switch PQresultStatus(result) {
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
                if let last { PQclear(last) }
                last = result
            case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH:
                // Nothing here copies; a connection in COPY mode cannot run the next command.
                PQclear(result)
                if let last { PQclear(last) }
                return .lost("COPY is not supported on this connection")
            default:
                if let error = serverError(result) {
                    if firstError == nil { firstError = error }
                } else {
                    // An error without SQLSTATE is libpq's own: the connection broke.
                    broken = broken ?? PQresultErrorMessage(result).map { String(cString: $0) }
                }
                PQclear(result)
            }
            if PQstatus(connection) == CONNECTION_BAD { break }
        }
        if PQstatus(connection) == CONNECTION_BAD || broken != nil {
            if let last { PQclear(last) }
            return .lost(firstError?.message ?? broken ?? errorMessage(connection))
        }
        return .done(last, firstError)
    }

    /// The server's error in `result`, nil when the error is libpq's (no SQLSTATE).
    private static func serverError(_ result: OpaquePointer) -> PostgresServerError? {
        func field(_ code: Character) -> String? {
            PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
        }
        // PG_DIAG_SQLSTATE 'C', PG_DIAG_SEVERITY_NONLOCALIZED 'V', PG_DIAG_MESSAGE_PRIMARY 'M',
        // PG_DIAG_MESSAGE_DETAIL 'D', PG_DIAG_MESSAGE_HINT 'H': character macros Swift does not import.
        // PG_DIAG_TABLE_NAME 't', PG_DIAG_COLUMN_NAME 'c', PG_DIAG_CONSTRAINT_NAME 'n', PG_DIAG_CONTEXT 'W'.
        guard let sqlState = field("C") else { return nil }
        var error = PostgresServerError(
            sqlState: sqlState, severity: field("V") ?? field("S") ?? "ERROR", message: field("M") ?? "", detail: field("D"), hint: field("H"))
        (error.table, error.column, error.constraint, error.context) = (field("t"), field("c"), field("n"), field("W"))
        return error
    }

    /// Waits until the connection's socket is ready for `events` or `deadline` passes: true when
    /// ready (or when there is no socket: libpq then reports the error itself). Input that TLS has
    /// already decrypted, which the socket no longer shows, counts as ready to read.
    static func waitForSocket(of connection: OpaquePointer, events: Int16, deadline: PostgresDeadline) -> Bool {
        let socket = PQsocket(connection)
        guard socket >= 0 else { return true }
        if events & Int16(POLLIN) != 0 && clibpq_tls_bytes_pending(connection) > 0 { return true }
        var descriptor = pollfd(fd: socket, events: events, revents: 0)
        while true {
            let ready = poll(&descriptor, 1, deadline.pollMilliseconds)
            if ready > 0 { return true }
            if ready == 0 {
                if deadline.hasPassed { return false }
                continue
            }
            if errno != EINTR { return true }
        }
    }
}
