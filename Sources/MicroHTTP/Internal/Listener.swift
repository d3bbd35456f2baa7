import ByteWriters
import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The listening socket and the thread that accepts on it, handing each connection to libmicrohttpd.
///
/// libmicrohttpd runs with `MHD_USE_NO_LISTEN_SOCKET` and never sees this socket. That is what
/// makes a graceful stop safe: `MHD_quiesce_daemon` in 0.9.75 races the epoll worker threads of a
/// thread pool. It sets each worker's `was_quiesced` and removes the listening socket from that
/// worker's epoll set, while the worker, on waking, sees the same flag and removes it too
/// (daemon.c, `MHD_epoll`); whoever loses gets `ENOENT`, and two of the three removal sites
/// (daemon.c:5531 in the quiesce loop, daemon.c:4976 in `MHD_epoll`) answer that with
/// `MHD_PANIC`, which aborts the process. A daemon without a listening socket never reaches any
/// of them. Stopping to accept is then ours alone: ``stopAccepting()`` shuts the socket down,
/// so the kernel refuses new connections at once.
///
/// The same thread runs the ``HeadWatchdog``'s sweeps, so the server needs no other thread.
final class Listener: @unchecked Sendable {
    /// The port the socket is bound to.
    let port: Int
    private let socket: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Whether accepted connections may still be handed to libmicrohttpd; held while one is.
    private let accepting = Locked(true)
    private let exiting = Atomic<Bool>(false)
    private var thread: pthread_t?

    /// Creates, binds and listens (`SO_REUSEADDR`; an IPv6 address does not take IPv4 too), non-blocking.
    init(address: SocketAddress, host: String, port: Int, backlog: Int) throws(ServerError) {
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        let socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard socket >= 0 else { throw Self.failure("socket", host, port) }
        var on: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if address.isIPv6 { setsockopt(socket, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size)) }
        let bound = address.withSockAddr { pointer in
            Glibc.bind(socket, pointer.assumingMemoryBound(to: sockaddr.self), address.length)
        }
        guard bound == 0, listen(socket, Int32(backlog)) == 0 else {
            let error = Self.failure(bound == 0 ? "listen" : "bind", host, port)
            close(socket)
            throw error
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        let boundPort =
            switch Int32(storage.ss_family) {
            case AF_INET6: withUnsafeBytes(of: &storage) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in6.self).sin6_port)) }
            default: withUnsafeBytes(of: &storage) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in.self).sin_port)) }
            }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            let error = Self.failure("pipe", host, port)
            close(socket)
            throw error
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        self.socket = socket
        self.port = boundPort
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
    }

    private static func failure(_ call: String, _ host: String, _ port: Int) -> ServerError {
        let reason = String(cString: strerror(errno))
        return .bindFailed(host: host, port: port, reason: call == "bind" ? reason : "\(call): \(reason)")
    }

    /// Starts the thread: accepts into `daemon` and sweeps `watchdog` (if any) until ``stop()``.
    /// Throws ``ServerError/bindFailed(host:port:reason:)`` when the thread cannot be made (no
    /// memory, a thread limit): the server then cannot accept, and says why instead of crashing.
    func start(daemon: OpaquePointer, core: ServerCore, host: String) throws(ServerError) {
        let loop = Loop(listener: self, daemon: daemon, core: core)
        do {
            thread = try Threads.start { loop.run() }
        } catch {
            throw ServerError.bindFailed(host: host, port: port, reason: "cannot create the listener thread: \(error)")
        }
    }

    /// Refuses new connections from now on: after it returns, no connection is handed to libmicrohttpd any more.
    func stopAccepting() {
        accepting.withLock { $0 = false }
        // The kernel now refuses new connections and resets those waiting in the backlog.
        shutdown(socket, Int32(SHUT_RDWR))
        wake()
    }

    /// Stops the thread and closes the socket. Call after `MHD_stop_daemon` has returned.
    func stop() {
        stopAccepting()
        exiting.store(true, ordering: .releasing)
        wake()
        if let thread { pthread_join(thread, nil) }
        thread = nil
        close(socket)
        close(wakeRead)
        close(wakeWrite)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// The thread's state (only the thread touches it).
    // Sendable: made here and handed to the listener's thread, which alone uses it from then on.
    private final class Loop: @unchecked Sendable {
        let listener: Listener
        let daemon: OpaquePointer
        let core: ServerCore
        /// When accept failed for lack of descriptors or memory: wait a little before trying again.
        var pausedUntil = ContinuousClock.now

        init(listener: Listener, daemon: OpaquePointer, core: ServerCore) {
            self.listener = listener
            self.daemon = daemon
            self.core = core
        }

        func run() {
            let watchdog = core.headWatchdog
            var nextSweep = ContinuousClock.now + (watchdog?.interval ?? .seconds(3600))
            while !listener.exiting.load(ordering: .acquiring) {
                let now = ContinuousClock.now
                // At the connection limit, leave new connections in the backlog, as libmicrohttpd does with its own socket.
                let atLimit = core.openConnections.load(ordering: .relaxed) >= core.configuration.daemonConnectionLimit
                let listen = listener.accepting.withLock { $0 } && !atLimit && now >= pausedUntil
                var wait = nextSweep - now
                if !listen { wait = min(wait, .milliseconds(50)) }
                var descriptors = (
                    pollfd(fd: listener.wakeRead, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: listener.socket, events: Int16(POLLIN), revents: 0)
                )
                let milliseconds = wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000
                let timeout = Int32(max(0, min(milliseconds, 60_000)))
                _ = withUnsafeMutablePointer(to: &descriptors) {
                    $0.withMemoryRebound(to: pollfd.self, capacity: 2) { poll($0, listen ? 2 : 1, timeout) }
                }
                if descriptors.0.revents != 0 { drainWakeups() }
                if listen && descriptors.1.revents != 0 { acceptPending() }
                if let watchdog, ContinuousClock.now >= nextSweep {
                    let cut = watchdog.sweep(now: ContinuousClock.now)
                    if cut > 0 {
                        core.logger.notice(
                            "Closed connections whose request head was not complete in time",
                            metadata: ["connections": "\(cut)", "header_timeout_s": "\(core.configuration.headerTimeout)"])
                    }
                    nextSweep = ContinuousClock.now + watchdog.interval
                }
            }
        }

        private func drainWakeups() {
            var buffer = (UInt64(0), UInt64(0))
            while withUnsafeMutableBytes(of: &buffer, { read(listener.wakeRead, $0.baseAddress, $0.count) }) > 0 {}
        }

        /// Accepts what is waiting (up to a batch) and hands it to libmicrohttpd, unless accepting was stopped meanwhile.
        private func acceptPending() {
            listener.accepting.withLock { accepting in
                guard accepting else { return }
                for _ in 0..<64 {
                    var storage = sockaddr_storage()
                    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                    let client = withUnsafeMutablePointer(to: &storage) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            // libmicrohttpd makes the socket non-blocking itself (MHD_add_connection).
                            accept(listener.socket, $0, &length)
                        }
                    }
                    if client < 0 {
                        switch errno {
                        case EINTR, ECONNABORTED, EPROTO: continue
                        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                            core.logger.warning("Cannot accept connections", metadata: ["error": "\(String(cString: strerror(errno)))"])
                            pausedUntil = .now + .milliseconds(100)
                            return
                        default: return  // EAGAIN: nothing more waiting
                        }
                    }
                    // libmicrohttpd closes the socket itself when it refuses it (connection or per-address limit).
                    _ = withUnsafeMutablePointer(to: &storage) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, client, $0, length) }
                    }
                }
            }
        }
    }
}
