import ByteWriters
import CMicroHTTPD
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server over libmicrohttpd: a pool of worker threads, each with its own epoll loop.
///
/// Handlers run synchronously on the worker threads. Start it once; stop it once (further
/// calls to ``stop(gracePeriod:)`` wait for the first to finish).
///
/// ```swift
/// var router = Router()
/// router.get("/hello") { _ in .text("Hello") }
/// let server = Server(configuration: ServerConfiguration(port: 8080), responder: router, logger: Logger(label: "http"))
/// try server.start()
/// let signals = try StopSignals.install()
/// try server.start()
/// _ = signals.wait()  // SIGTERM or SIGINT, whichever thread receives it
/// server.stop(gracePeriod: .seconds(10))
/// ```
public final class Server: Sendable {
    /// The configuration the server was created with.
    public let configuration: ServerConfiguration

    private let core: ServerCore
    private let state = Locked(State.idle)

    private enum State {
        case idle
        case running(
            daemon: OpaquePointer, listener: Listener, context: Unmanaged<ServerCore>, daemonLogger: UnsafeMutablePointer<cmhd_logger>)
        case stopping
        case stopped
    }

    /// Creates a server; nothing listens until ``start()``.
    ///
    /// Each finished request is logged as an `info` event of `logger`, or written by `accessLog`
    /// when one is given (see ``AccessLogWriter``).
    public init(
        configuration: ServerConfiguration, responder: any HTTPResponder, logger: Logger, observer: (any ServerObserver)? = nil,
        accessLog: (any AccessLogWriter)? = nil
    ) {
        self.configuration = configuration
        self.core = ServerCore(configuration: configuration, responder: responder, logger: logger, observer: observer, accessLog: accessLog)
    }

    deinit {
        stop(gracePeriod: .zero)
    }

    /// The port the server listens on (the bound one when configured with port 0); the configured port before start.
    public var port: Int {
        state.withLock { state in
            if case .running(_, let listener, _, _) = state { return listener.port }
            return configuration.port
        }
    }

    /// Whether the server is accepting connections.
    public var isRunning: Bool {
        state.withLock { state in
            if case .running = state { return true }
            return false
        }
    }

    /// Connections currently open.
    public var openConnections: Int {
        core.openConnections.load(ordering: .relaxed)
    }

    /// Event streams currently open (see ``EventStream``).
    public var openEventStreams: Int {
        core.eventStreams.count
    }

    /// Binds and starts the worker threads.
    ///
    /// - Throws: ``ServerError`` for an invalid configuration, an unusable host, a failed bind, or a second start.
    public func start() throws(ServerError) {
        try configuration.validate()
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        DescriptorLimit.raise(toAtLeast: configuration.daemonConnectionLimit + DescriptorLimit.reserve, logger: core.logger)
        // The worker threads inherit the stop signals blocked: a signal's handler runs on
        // another thread and their epoll waits are not interrupted (see ``StopSignals``).
        try StopSignals.blocked { () throws(ServerError) in try startBlocked(address: address) }
    }

    private func startBlocked(address: SocketAddress) throws(ServerError) {
        try state.withLock { (state: inout State) throws(ServerError) in
            guard case .idle = state else { throw ServerError.alreadyStarted }
            let listener = try Listener(
                address: address, host: configuration.host, port: configuration.port, backlog: configuration.listenBacklog)
            let context = Unmanaged.passRetained(core)
            let daemonLogger = UnsafeMutablePointer<cmhd_logger>.allocate(capacity: 1)
            daemonLogger.initialize(to: cmhd_logger(function: MHDCallbacks.logDaemonMessage, cls: context.toOpaque()))
            guard let daemon = startDaemon(context: context.toOpaque(), logger: daemonLogger) else {
                let error = errno
                let reason = core.lastDaemonMessage.withLock { $0 } ?? String(cString: strerror(error))
                listener.stop()
                daemonLogger.deallocate()
                context.release()
                throw ServerError.bindFailed(host: configuration.host, port: configuration.port, reason: reason)
            }
            do throws(ServerError) {
                try listener.start(daemon: daemon, core: core, host: configuration.host)
            } catch {
                MHD_stop_daemon(daemon)
                listener.stop()
                daemonLogger.deallocate()
                context.release()
                throw error
            }
            state = .running(daemon: daemon, listener: listener, context: context, daemonLogger: daemonLogger)
            core.logger.debug(
                "Listening", metadata: ["host": "\(configuration.host)", "port": "\(listener.port)", "threads": "\(configuration.threads)"])
        }
    }

    /// Stops gracefully: refuses new connections, lets requests in flight finish until `gracePeriod` has passed, then closes everything.
    ///
    /// Idempotent and callable from any thread (e.g. after ``StopSignals/wait()`` on the main thread), but not from a handler.
    public func stop(gracePeriod: Duration = .seconds(10)) {
        let running: (daemon: OpaquePointer, listener: Listener, context: Unmanaged<ServerCore>, daemonLogger: UnsafeMutablePointer<cmhd_logger>)? =
            state.withLock { state in
                guard case .running(let daemon, let listener, let context, let daemonLogger) = state else {
                    if case .idle = state { state = .stopped }
                    return nil
                }
                state = .stopping
                return (daemon, listener, context, daemonLogger)
            }
        guard let running else {
            while state.withLock({ if case .stopping = $0 { return true } else { return false } }) { usleep(5_000) }
            return
        }
        core.draining.store(true, ordering: .relaxed)
        // Refuse new connections now. Not MHD_quiesce_daemon: in 0.9.75 it races the epoll workers and can abort (see Listener).
        running.listener.stopAccepting()
        // End every event stream (each sends what it has queued, then its body ends) and resume the
        // suspended ones: libmicrohttpd 0.9.75 aborts in MHD_stop_daemon if a connection is still suspended.
        core.eventStreams.endAll()
        let deadline = ContinuousClock.now + gracePeriod
        while core.inFlightRequests.load(ordering: .relaxed) > 0 && ContinuousClock.now < deadline {
            usleep(5_000)
        }
        let abandoned = core.inFlightRequests.load(ordering: .relaxed)
        MHD_stop_daemon(running.daemon)
        core.eventStreams.stop()
        // Every connection is closed and unregistered from the head watchdog; its sweeps end with the listener's thread.
        running.listener.stop()
        running.daemonLogger.deallocate()
        running.context.release()
        if abandoned > 0 {
            core.logger.warning("Stopped with requests unfinished after the grace period", metadata: ["abandoned_requests": "\(abandoned)"])
        } else {
            core.logger.debug("Stopped")
        }
        state.withLock { $0 = .stopped }
    }

    /// Starts libmicrohttpd without a listening socket of its own: the ``Listener`` hands it the connections.
    private func startDaemon(context: UnsafeMutableRawPointer, logger: UnsafeMutablePointer<cmhd_logger>) -> OpaquePointer? {
        let flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_USE_NO_LISTEN_SOCKET.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        var options: [MHD_OptionItem] = [
            cmhd_option_external_logger(logger),
            // Event streams hold their connections open: room for them on top of the ordinary limits.
            cmhd_option_uint(.CONNECTION_LIMIT, UInt32(configuration.daemonConnectionLimit)),
            cmhd_option_uint(.PER_IP_CONNECTION_LIMIT, UInt32(configuration.perIPConnectionLimit)),
            cmhd_option_uint(.CONNECTION_TIMEOUT, UInt32(configuration.connectionTimeout)),
            cmhd_option_size(.CONNECTION_MEMORY_LIMIT, configuration.connectionMemoryLimit),
            cmhd_option_uri_log(MHDCallbacks.logURI, context),
            cmhd_option_notify_completed(MHDCallbacks.requestCompleted, context),
            cmhd_option_notify_connection(MHDCallbacks.connectionNotification, context),
        ]
        if configuration.threads > 1 {
            options.append(cmhd_option_uint(.THREAD_POOL_SIZE, UInt32(configuration.threads)))
        }
        options.append(cmhd_option_end())
        return options.withUnsafeMutableBufferPointer { buffer in
            cmhd_start_daemon(flags, 0, MHDCallbacks.accessHandler, context, buffer.baseAddress)
        }
    }
}
