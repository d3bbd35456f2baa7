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
///
/// A request still on its way when its query ends by itself (its `statement_timeout`, its last
/// row) would cancel whatever the connection runs next — a `ROLLBACK`, another request's read —
/// so a connection is kept only once its request has been taken by the server (``Sent/wait(until:)``).
enum PostgresCancel {
    /// Cancel requests whose thread has not finished: they pile up only while a server does not answer.
    static let limit = 16
    private static let inFlight = Atomic<Int>(0)

    /// A `PGcancel` handed to the thread that sends it and frees it (libpq lets a thread other
    /// than the connection's use it: `PQcancel` only reads it).
    private struct Request: @unchecked Sendable {
        let cancel: OpaquePointer
    }

    /// A cancel request sent: whether the server has taken it yet.
    final class Sent: @unchecked Sendable {
        private let lock = Lock()
        private let wake = Condition()
        private var taken = false  // guarded by lock

        fileprivate func markTaken() {
            lock.withLock {
                taken = true
                wake.signal()
            }
        }

        /// Waits until the server has taken the request (read it and closed its socket: the
        /// backend is signalled by then), or `deadline`; false when the deadline passed first.
        func wait(until deadline: PostgresDeadline) -> Bool {
            lock.withLock {
                while !taken {
                    let left = deadline.instant - ContinuousClock.now
                    guard left > .zero else { break }
                    _ = lock.wait(for: wake, until: Condition.deadline(after: left))
                }
                return taken
            }
        }
    }

    /// Sends a cancel request for `connection`'s query; nil when none could be sent (no memory,
    /// no thread, too many in flight).
    static func send(for connection: OpaquePointer) -> Sent? {
        guard inFlight.add(1, ordering: .relaxed).newValue <= limit else {
            inFlight.subtract(1, ordering: .relaxed)
            return nil
        }
        guard let cancel = PQgetCancel(connection) else {
            inFlight.subtract(1, ordering: .relaxed)
            return nil
        }
        let request = Request(cancel: cancel)
        let sent = Sent()
        let started = Threads.detach {
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(request.cancel, &message, Int32(message.count))
            PQfreeCancel(request.cancel)
            inFlight.subtract(1, ordering: .relaxed)
            sent.markTaken()
        }
        if !started {
            PQfreeCancel(cancel)
            inFlight.subtract(1, ordering: .relaxed)
            return nil
        }
        return sent
    }
}
