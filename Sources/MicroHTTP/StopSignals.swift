import ByteWriters

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for a stop signal (SIGTERM, SIGINT), whichever thread of the process the kernel hands it to.
///
/// A process-wide signal goes to any thread that does not block it. Blocking the signals and
/// calling `sigwait` works only when every thread blocks them, and a thread started before the
/// mask was set (by the app, or by a library) does not: the signal's default action then ends
/// the process with no drain. So instead a handler is installed for each signal; on whatever
/// thread it runs, it writes the signal's number to a pipe, and ``wait()`` reads it.
///
/// ```swift
/// let signals = try StopSignals.install()   // before starting the server
/// try server.start()
/// let received = signals.wait()             // SIGTERM or SIGINT
/// server.stop(gracePeriod: .seconds(10))
/// ```
///
/// Install it before starting the server: ``Server/start()`` blocks the stop signals in the
/// worker threads it creates, so their system calls are not interrupted.
public final class StopSignals: Sendable {
    /// The signals this waits for.
    public let signals: [Int32]

    private let readEnd: Int32

    /// The write end of the pipe, read by the signal handler. One per process.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    private static let installation = Locked<StopSignals?>(nil)

    private init(signals: [Int32], readEnd: Int32) {
        self.signals = signals
        self.readEnd = readEnd
    }

    /// Installs the handlers (once per process; a second call returns the first installation
    /// when it names the same signals), and unblocks the signals in the calling thread, which
    /// should be the one that calls ``wait()``.
    ///
    /// - Throws: ``ServerError/signalSetupFailed(reason:)`` when the pipe or a handler cannot be set up.
    public static func install(_ signals: [Int32] = [SIGTERM, SIGINT]) throws(ServerError) -> StopSignals {
        try installation.withLock { (installed: inout StopSignals?) throws(ServerError) -> StopSignals in
            if let installed {
                guard installed.signals == signals else {
                    throw ServerError.signalSetupFailed(reason: "stop signals are already installed for \(installed.signals)")
                }
                return installed
            }
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                throw ServerError.signalSetupFailed(reason: "pipe: \(String(cString: strerror(errno)))")
            }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // A handler must never block: a full pipe drops the byte (a stop is already pending).
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            writeEnd = ends[1]
            for signal in signals {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = stopSignalHandler
                action.sa_flags = SA_RESTART
                sigemptyset(&action.sa_mask)
                guard sigaction(signal, &action, nil) == 0 else {
                    throw ServerError.signalSetupFailed(reason: "sigaction(\(signal)): \(String(cString: strerror(errno)))")
                }
            }
            // A process can start with signals blocked (a parent's mask is inherited through
            // exec): unblocked in this thread, which is the one that waits, so one always can take them.
            var waited = sigset_t()
            sigemptyset(&waited)
            for signal in signals { sigaddset(&waited, signal) }
            pthread_sigmask(SIG_UNBLOCK, &waited, nil)
            let stopSignals = StopSignals(signals: signals, readEnd: ends[0])
            installed = stopSignals
            return stopSignals
        }
    }

    /// Blocks the calling thread until one of the signals arrives; returns its number.
    public func wait() -> Int32 {
        var byte: UInt8 = 0
        while true {
            let count = read(readEnd, &byte, 1)
            if count == 1 { return Int32(byte) }
            if count < 0 && errno == EINTR { continue }
            // The pipe cannot close while this object lives; treat anything else as a stop.
            return SIGTERM
        }
    }

    /// Wakes ``wait()`` as `signal` would, from any thread: for a part of the program that finds it
    /// must end (Cellar's deferred start, when what it waited for refuses it).
    public func interrupt(as signal: Int32 = SIGTERM) {
        Self.handle(signal)
    }

    /// The name of a stop signal, for logs (`SIGTERM`).
    public static func name(of signal: Int32) -> String {
        switch signal {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "signal \(signal)"
        }
    }

    /// Writes the signal's number to the pipe: only async-signal-safe calls, and `errno` kept.
    fileprivate static func handle(_ signal: Int32) {
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = write(writeEnd, &byte, 1)
        errno = saved
    }

    /// Runs `body` with the stop signals blocked in the calling thread, so threads created in it
    /// inherit the block; the previous mask is restored after.
    static func blocked<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        var stopping = sigset_t()
        sigemptyset(&stopping)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT] { sigaddset(&stopping, signal) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &stopping, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }
}

private func stopSignalHandler(_ signal: Int32) {
    StopSignals.handle(signal)
}
