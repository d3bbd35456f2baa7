#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Threads of the package's own (the listener, the log flusher, heartbeats, pollers): pthreads,
/// as the modules use no Foundation, started in one place beside the one lock.
public enum Threads {
    /// A thread that could not be made: the error number `pthread_create` returned (no memory, a
    /// thread limit).
    public struct StartError: Error, CustomStringConvertible {
        public let code: Int32
        public var description: String { String(cString: strerror(code)) }
    }

    /// Runs `body` on a new thread and returns it, to be joined (`pthread_join`) or detached.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(StartError) -> pthread_t {
        final class Body {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        let context = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context.toOpaque())
        guard created == 0 else {
            context.release()
            throw StartError(code: created)
        }
        return thread
    }

    /// Blocks the calling thread for `interval` (a poller's pause, a reconnection's backoff),
    /// resuming the wait when a signal interrupts it.
    public static func sleep(_ interval: Duration) {
        let (seconds, attoseconds) = max(interval, .zero).components
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&time, &remaining) != 0 && errno == EINTR { time = remaining }
    }

    /// Runs `body` on a new thread that no one joins; false when it could not be made.
    @discardableResult public static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = try? start(body) else { return false }
        pthread_detach(thread)
        return true
    }
}
