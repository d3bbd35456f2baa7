import ByteWriters
import CLibPQ
import Synchronization

/// Asks the server to cancel a connection's running query, without making the caller wait for it.
///
/// libpq 15's `PQcancel` blocks until the server has read the request and closed the socket — for
/// as long as the server is frozen, had the caller waited. So each request runs on a thread of its
/// own, and the connection awaits its query's end for a short grace instead (``PostgresConnection``).
/// A bounded number run at once: past it, no cancel is sent and the connection is simply closed
/// (`statement_timeout` then bounds the query the server goes on running).
enum PostgresCancel {
    /// Cancel requests whose thread has not finished: they pile up only while a server does not answer.
    static let limit = 16
    private static let inFlight = Atomic<Int>(0)

    /// A `PGcancel` handed to the thread that sends it and frees it (libpq lets a thread other
    /// than the connection's use it: `PQcancel` only reads it).
    private struct Request: @unchecked Sendable {
        let cancel: OpaquePointer
    }

    /// Sends a cancel request for `connection`'s query; false when none could be sent (no memory,
    /// no thread, too many in flight).
    static func send(for connection: OpaquePointer) -> Bool {
        guard inFlight.add(1, ordering: .relaxed).newValue <= limit else {
            inFlight.subtract(1, ordering: .relaxed)
            return false
        }
        guard let cancel = PQgetCancel(connection) else {
            inFlight.subtract(1, ordering: .relaxed)
            return false
        }
        let request = Request(cancel: cancel)
        let started = Threads.detach {
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(request.cancel, &message, Int32(message.count))
            PQfreeCancel(request.cancel)
            inFlight.subtract(1, ordering: .relaxed)
        }
        if !started {
            PQfreeCancel(cancel)
            inFlight.subtract(1, ordering: .relaxed)
        }
        return started
    }
}
