import CLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A notification a `NOTIFY` (or `pg_notify`) sent to a channel this connection listens to.
public struct PostgresNotification: Sendable, Equatable {
    public let channel: String
    public let payload: String
    /// The server process of the session that sent it.
    public let senderProcessID: Int32
}

extension PostgresConnection {
    /// Listens to `channel` (`LISTEN`): its notifications queue up on this connection until
    /// ``notifications(waitingUntil:)`` takes them. A connection made again after the server closed
    /// it listens to nothing: a listener makes a new connection and listens again instead.
    public func listen(_ channel: String, deadline: PostgresDeadline) throws(PostgresError) {
        try execute("LISTEN " + quotedIdentifier(channel), deadline: deadline)
    }

    /// The notifications received, waiting on the socket with `poll(2)` until at least one arrives
    /// or `deadline` passes (then none). A connection the server closed, or that broke, is closed
    /// and the call throws ``PostgresError/unavailable(connection:message:)``; it is not made
    /// again here, since a new connection would not be listening.
    public func notifications(waitingUntil deadline: PostgresDeadline) throws(PostgresError) -> [PostgresNotification] {
        guard let connection = handle, PQstatus(connection) == CONNECTION_OK else {
            close()
            throw .unavailable(connection: info.description, message: "the listening connection was lost")
        }
        var received = Self.takeNotifications(connection)
        while received.isEmpty {
            guard Self.waitForSocket(of: connection, events: Int16(POLLIN), deadline: deadline) else { return [] }
            guard PQconsumeInput(connection) == 1, PQstatus(connection) == CONNECTION_OK else {
                let message = Self.errorMessage(connection)
                close()
                throw .unavailable(connection: info.description, message: info.redacting(PostgresConnectionInfo.trimmed(message)))
            }
            received = Self.takeNotifications(connection)
        }
        return received
    }

    /// Every notification libpq has parsed, in the order they came.
    private static func takeNotifications(_ connection: OpaquePointer) -> [PostgresNotification] {
        var received: [PostgresNotification] = []
        while let notification = PQnotifies(connection) {
            let note = notification.pointee
            received.append(
                PostgresNotification(
                    channel: note.relname.map { String(cString: $0) } ?? "", payload: note.extra.map { String(cString: $0) } ?? "",
                    senderProcessID: note.be_pid))
            PQfreemem(notification)
        }
        return received
    }
}
