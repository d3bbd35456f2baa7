import ArgumentParser
import Logging
import MicroHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `serve` (the default command): builds the app, listens, and drains on SIGTERM or SIGINT.
struct ServeCommand: AppSubcommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the app's lists (the default command).")

    @OptionGroup var options: AppOptions

    @OptionGroup var signInFlags: SignInFlags

    @Option(help: ArgumentHelp("The address to listen on (env HOST).", valueName: "address"))
    var host: String = EnvironmentVariables.string("HOST") ?? "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on, 0 for any free port (env PORT).", valueName: "port"))
    var port: Int = EnvironmentVariables.int("PORT") ?? 8080

    @Option(help: ArgumentHelp("Worker threads (env CELLAR_THREADS; default: one per core the process may use).", valueName: "count"))
    var threads: Int = EnvironmentVariables.int("CELLAR_THREADS") ?? ServerConfiguration.activeProcessorCount

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical (env CELLAR_LOG_LEVEL).", valueName: "level"))
    var logLevel: String = EnvironmentVariables.string("CELLAR_LOG_LEVEL") ?? "info"

    @Option(help: ArgumentHelp("logfmt or json (env CELLAR_LOG_FORMAT).", valueName: "format"))
    var logFormat: String = EnvironmentVariables.string("CELLAR_LOG_FORMAT") ?? "logfmt"

    @Option(help: ArgumentHelp("Connections held open at once (env CELLAR_MAX_CONNECTIONS).", valueName: "count"))
    var maxConnections: Int = EnvironmentVariables.int("CELLAR_MAX_CONNECTIONS") ?? 1024

    @Option(help: ArgumentHelp("Connections from one address at once (env CELLAR_MAX_CONNECTIONS_PER_IP).", valueName: "count"))
    var maxConnectionsPerIP: Int = EnvironmentVariables.int("CELLAR_MAX_CONNECTIONS_PER_IP") ?? 256

    @Option(help: ArgumentHelp("Lists watched at once, live (env CELLAR_MAX_WATCHERS); more get 503.", valueName: "count"))
    var maxWatchers: Int = EnvironmentVariables.int("CELLAR_MAX_WATCHERS") ?? 4096

    @Option(
        help: ArgumentHelp(
            "Lists watched at once from one address, within its connections (env CELLAR_MAX_WATCHERS_PER_IP; default 64 or fewer).",
            valueName: "count"))
    var maxWatchersPerIP: Int?

    @Option(help: ArgumentHelp("Seconds an idle or stalled connection is kept (env CELLAR_TIMEOUT).", valueName: "seconds"))
    var timeout: Int = EnvironmentVariables.int("CELLAR_TIMEOUT") ?? 30

    @Option(
        help: ArgumentHelp(
            "Seconds a connection gets to send a whole request head, however slowly it trickles; 0: no limit (env CELLAR_HEADER_TIMEOUT).",
            valueName: "seconds"))
    var headerTimeout: Int = EnvironmentVariables.int("CELLAR_HEADER_TIMEOUT") ?? 10

    @Option(help: ArgumentHelp("Seconds in-flight responses get to finish after SIGTERM (env CELLAR_SHUTDOWN_GRACE).", valueName: "seconds"))
    var shutdownGrace: Int = EnvironmentVariables.int("CELLAR_SHUTDOWN_GRACE") ?? 10

    @Flag(
        help: ArgumentHelp(
            "Show what went wrong inside the server on 5xx pages and in their JSON, not only in the log (env CELLAR_DEVELOPMENT=1). Never in production."
        ))
    var development: Bool = EnvironmentVariables.flag("CELLAR_DEVELOPMENT")

    /// The flag, the variable, or 64 — at most the connections an address may hold.
    private var watchersPerIP: Int {
        maxWatchersPerIP ?? EnvironmentVariables.int("CELLAR_MAX_WATCHERS_PER_IP") ?? min(64, maxConnectionsPerIP)
    }

    func validate() throws {
        try EnvironmentVariables.validate(
            "PORT", "CELLAR_THREADS", "CELLAR_MAX_CONNECTIONS", "CELLAR_MAX_CONNECTIONS_PER_IP", "CELLAR_MAX_WATCHERS", "CELLAR_MAX_WATCHERS_PER_IP",
            "CELLAR_TIMEOUT", "CELLAR_HEADER_TIMEOUT",
            "CELLAR_SHUTDOWN_GRACE", "CELLAR_DEVELOPMENT")
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535 (got \(port)).") }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be between 1 and 256 (got \(threads)).") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(logLevel)').")
        }
        guard LineLogHandler.Format(rawValue: logFormat) != nil else {
            throw ValidationError("--log-format must be logfmt or json (got '\(logFormat)').")
        }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1 (got \(maxConnections)).") }
        guard maxConnectionsPerIP >= 1 else { throw ValidationError("--max-connections-per-ip must be at least 1 (got \(maxConnectionsPerIP)).") }
        guard maxWatchers >= 0 else { throw ValidationError("--max-watchers must not be negative (got \(maxWatchers)).") }
        guard (0...maxConnectionsPerIP).contains(watchersPerIP) else {
            throw ValidationError(
                "--max-watchers-per-ip must be between 0 and --max-connections-per-ip (\(maxConnectionsPerIP)) (got \(watchersPerIP)).")
        }
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout must be between 1 and 3600 seconds (got \(timeout)).") }
        guard (0...3600).contains(headerTimeout) else {
            throw ValidationError("--header-timeout must be between 0 and 3600 seconds (got \(headerTimeout)).")
        }
        guard (0...600).contains(shutdownGrace) else {
            throw ValidationError("--shutdown-grace must be between 0 and 600 seconds (got \(shutdownGrace)).")
        }
    }

    func run(_ program: Program) throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let format = LineLogHandler.Format(rawValue: logFormat) ?? .logfmt
        LoggingSystem.bootstrap { LineLogHandler(label: $0, format: format, level: level) }
        let logger = Logger(label: program.name)

        let app = try program.makeApp(options: options, logger: logger, showsErrorDetails: development, signIn: signInFlags)
        // Only an app with lists waiting for something (a database down at start) answers through a
        // DeferredStart; every other one is served by its router itself.
        let deferred = app.deferredMounts.isEmpty ? nil : DeferredStart(app: app)
        let configuration = ServerConfiguration(
            host: host, port: port, threads: threads, connectionLimit: maxConnections, perIPConnectionLimit: maxConnectionsPerIP,
            eventStreamLimit: maxWatchers, eventStreamsPerAddress: watchersPerIP,
            connectionTimeout: timeout, headerTimeout: headerTimeout, streamChunkSize: app.streamChunkSize, defaultHeaders: app.defaultHeaders,
            errorRenderer: deferred?.errorRenderer ?? app.errorRenderer, bufferedResponseBytes: app.bufferedResponseBytes)
        // The middleware goes around the deferred start too: its answers meanwhile are refused or allowed as the router's.
        let router: any HTTPResponder = if let deferred { deferred } else { app.makeServingRouter() }
        let responder = app.middlewareChain(around: router)
        let server = Server(
            configuration: configuration, responder: responder, logger: logger, observer: app.metrics,
            accessLog: LineAccessLog(label: logger.label, format: format))

        let signals: StopSignals
        do {
            // SIGHUP reloads the accounts and permissions; the others stop.
            signals = try StopSignals.install([SIGTERM, SIGINT, SIGHUP])
            try server.start()
        } catch {
            // In the log for the operator's records, and said as every other start-up error is:
            // a port in use is what a new user meets first.
            logger.critical("cannot start", metadata: ["error": "\(error)", "host": "\(host)", "port": "\(port)"])
            var hint = ""
            if case ServerError.bindFailed(_, _, let reason) = error, reason.contains("in use") {
                hint = " (another process listens there: stop it, or choose another port with --port or PORT)"
            }
            writeToStandardError("Error: Cannot start: \(error)\(hint)\n")
            throw ExitCode(70)
        }
        logger.info(
            "listening",
            metadata: [
                "address": "http://\(host.contains(":") ? "[\(host)]" : host):\(server.port)", "version": "\(program.version)",
                "threads": "\(threads)", "public": "\(app.publicDirectory)",
            ])
        if development { logger.warning("development mode: 5xx answers show internal errors; do not use it in production") }
        do {
            try deferred?.start { _ in signals.interrupt() }
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            server.stop(gracePeriod: .zero)
            throw ExitCode(70)
        }

        var received = signals.wait()
        while received == SIGHUP {
            app.reloadAccessConfiguration()
            received = signals.wait()
        }
        deferred?.stop()
        if let failure = deferred?.failure {
            // Logged by the deferred start; said as a start says it, and exits as one does (64).
            writeToStandardError("Error: Cannot start: \(failure)\n")
            server.stop(gracePeriod: .seconds(shutdownGrace))
            throw ExitCode.validationFailure
        }
        logger.info("stopping", metadata: ["signal": "\(StopSignals.name(of: received))", "grace_seconds": "\(shutdownGrace)"])
        server.stop(gracePeriod: .seconds(shutdownGrace))
        logger.info("stopped")
    }
}
