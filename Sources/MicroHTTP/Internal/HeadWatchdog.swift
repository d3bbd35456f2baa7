import ByteWriters
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A deadline for request heads: closes connections that have not sent a complete head within
/// ``ServerConfiguration/headerTimeout`` (slowloris).
///
/// libmicrohttpd's connection timeout is an idle timeout, which any byte resets, and 0.9.75 has no
/// deadline for a whole head. Each connection is registered when libmicrohttpd reports it started
/// and unregistered when it reports it closed; ``sweep(now:)``, called about four times per
/// timeout by the ``Listener`` thread, `shutdown(2)`s the sockets of connections that have waited
/// for a head too long, and libmicrohttpd then sees the end of the stream and closes them itself.
///
/// ## Why the watchdog never shuts down a reused descriptor
///
/// In libmicrohttpd 0.9.75 every path that closes a connection's socket after
/// `MHD_CONNECTION_NOTIFY_STARTED` calls `MHD_CONNECTION_NOTIFY_CLOSED` *before* `close(fd)`
/// (`MHD_cleanup_connections` and the failure path of `new_connection_process_` in daemon.c).
/// ``unregister(_:)`` runs in that callback and takes the same lock that ``sweep(now:)`` holds
/// across "still registered? then shutdown". So while the watchdog holds the lock and finds the
/// entry, `close(fd)` has not happened yet and the descriptor is still this connection's socket.
///
/// ## Cost per request
///
/// A connection waits for a head from its start, and again after each response on a keep-alive
/// connection. The worker thread that owns the connection records only the transitions, as two
/// counters it alone writes (a relaxed load and store each, no lock, no allocation, no clock
/// read); the watchdog notices a change and starts the wait at the sweep that saw it, so the
/// deadline holds to within one sweep interval.
final class HeadWatchdog: Sendable {
    /// How long a connection may wait for a complete head.
    let timeout: Duration
    /// How often ``sweep(now:)`` should run.
    let interval: Duration
    private let connections = Locked<[ObjectIdentifier: ConnectionWatch]>([:])

    init(timeout: Duration) {
        self.timeout = timeout
        interval = min(.seconds(1), max(.milliseconds(50), timeout / 4))
    }

    /// Starts watching a connection's socket; returns the pointer to keep in libmicrohttpd's `socket_context`.
    func register(socket: Int32) -> UnsafeMutableRawPointer {
        let watch = ConnectionWatch(socket: socket, connected: .now)
        connections.withLock { $0[ObjectIdentifier(watch)] = watch }
        return Unmanaged.passRetained(watch).toOpaque()
    }

    /// Stops watching (libmicrohttpd is about to close the socket) and releases the pointer ``register(socket:)`` returned.
    func unregister(_ pointer: UnsafeMutableRawPointer) {
        let watch = Unmanaged<ConnectionWatch>.fromOpaque(pointer).takeRetainedValue()
        connections.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(watch)) }
    }

    /// Shuts down the sockets of connections that have waited longer than ``timeout`` for a head; returns how many.
    func sweep(now: ContinuousClock.Instant) -> Int {
        connections.withLock { connections in
            var cut = 0
            for watch in connections.values where watch.isOverdue(now: now, timeout: timeout) {
                // Under the lock: the connection is still registered, so its socket is still open (see above).
                shutdown(watch.socket, Int32(SHUT_RDWR))
                cut += 1
            }
            return cut
        }
    }

    /// Connections being watched.
    var count: Int { connections.withLock { $0.count } }
}

/// One connection's progress through request heads, shared by its worker thread and the watchdog.
final class ConnectionWatch: @unchecked Sendable {
    let socket: Int32
    /// Heads completed on this connection. Written only by the connection's worker thread.
    private let headsCompleted = Atomic<Int>(0)
    /// Requests finished after their head was completed. Written only by the connection's worker thread.
    private let requestsFinished = Atomic<Int>(0)

    // The watchdog's own view, read and written only under its lock.
    private var headsSeen = 0
    private var waitingSince: ContinuousClock.Instant?
    private var shutDown = false

    init(socket: Int32, connected: ContinuousClock.Instant) {
        self.socket = socket
        waitingSince = connected
    }

    /// The connection's worker thread: a head is complete (the access handler's first call for a request).
    static func headCompleted(_ pointer: UnsafeMutableRawPointer) {
        Unmanaged<ConnectionWatch>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
            $0.headsCompleted.store($0.headsCompleted.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        }
    }

    /// The connection's worker thread: the request whose head was counted is finished; the connection waits for the next head.
    static func requestFinished(_ pointer: UnsafeMutableRawPointer) {
        Unmanaged<ConnectionWatch>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
            $0.requestsFinished.store($0.requestsFinished.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        }
    }

    /// Under the watchdog's lock: whether the connection has waited for a head longer than `timeout` (and was not cut yet).
    fileprivate func isOverdue(now: ContinuousClock.Instant, timeout: Duration) -> Bool {
        // Finished is read first: it never exceeds completed, so a torn pair reads as "busy", which only delays a cut.
        let finished = requestsFinished.load(ordering: .relaxed)
        let completed = headsCompleted.load(ordering: .relaxed)
        guard completed == finished else {
            waitingSince = nil  // a request is being served: no head is awaited
            return false
        }
        if completed != headsSeen || waitingSince == nil {
            headsSeen = completed
            waitingSince = now
            return false
        }
        guard let waitingSince, !shutDown, now - waitingSince >= timeout else { return false }
        shutDown = true
        return true
    }
}
