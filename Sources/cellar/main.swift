// The executable: command line, configuration, wiring and signals. Everything it runs lives in
// the modules. No C callback may be defined here: main.swift is main-actor code, and a callback
// formed here would trap on libmicrohttpd's worker threads.
import ArgumentParser
import Cellar
import FoundationEssentials
import Logging
import MicroHTTP
import Showcase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

struct CellarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cellar",
        abstract: "Serves lists the iOS table-view way: typed cells, reuse, sections — as HTML pages, fragments and JSON.",
        discussion: """
            Environment (a flag wins over its variable):
              HOST                            --host (serve, healthcheck)
              PORT                            --port (serve, healthcheck)
              CELLAR_PUBLIC                   --public (serve, routes)
              CELLAR_THREADS                  --threads
              CELLAR_LOG_LEVEL                --log-level
              CELLAR_LOG_FORMAT               --log-format
              CELLAR_MAX_CONNECTIONS          --max-connections
              CELLAR_MAX_CONNECTIONS_PER_IP   --max-connections-per-ip
              CELLAR_TIMEOUT                  --timeout
              CELLAR_HEADER_TIMEOUT           --header-timeout
              CELLAR_SHUTDOWN_GRACE           --shutdown-grace

            SIGTERM or SIGINT: stop accepting connections, let responses in flight
            finish for up to the shutdown grace, exit 0.
            Exit codes: 64 usage or configuration error, 70 cannot start (e.g. the
            port is taken), 1 healthcheck failed.
            """,
        version: cellarVersion,
        subcommands: [Serve.self, Routes.self, Healthcheck.self],
        defaultSubcommand: Serve.self
    )
}

let cellarVersion = "0.1.0"

/// Options shared by `serve` and `routes`, each with an environment fallback.
struct AppOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The folder with app.css, app.js and prototypes/ (env CELLAR_PUBLIC).", valueName: "path"))
    var `public`: String = Environment.string("CELLAR_PUBLIC") ?? "Public"

    func validate() throws {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: `public`, isDirectory: &isDirectory), isDirectory else {
            throw ValidationError("The public folder '\(`public`)' does not exist or is not a folder (set --public or CELLAR_PUBLIC).")
        }
    }

    /// Strings for the `/xss` list from a JSON array file (env CELLAR_HOSTILE_PAYLOADS), to try
    /// the escaping with payloads of your own; nil: the built-in list.
    func hostilePayloads() throws -> [String]? {
        guard let path = Environment.string("CELLAR_HOSTILE_PAYLOADS") else { return nil }
        guard let data = FileManager.default.contents(atPath: path),
            let payloads = try? JSONDecoder().decode([String].self, from: data)
        else {
            throw ValidationError("CELLAR_HOSTILE_PAYLOADS='\(path)' is not a readable JSON array of strings.")
        }
        return payloads
    }

    /// The showcase app, with its cells registered and every list checked.
    func makeApp(logger: Logger) throws -> App {
        let app = App(publicDirectory: `public`, logger: logger)
        app.version = cellarVersion
        do {
            try Showcase.install(in: app, hostilePayloads: try hostilePayloads())
            try app.validate()
        } catch {
            // A configuration problem, not a usage one: the message alone, without a usage line.
            writeToStandardError("Error: Cannot start: \(error)\n")
            throw ExitCode.validationFailure
        }
        return app
    }
}

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the showcase lists (the default command).")

    @OptionGroup var app: AppOptions

    @Option(help: ArgumentHelp("The address to listen on (env HOST).", valueName: "address"))
    var host: String = Environment.string("HOST") ?? "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on, 0 for any free port (env PORT).", valueName: "port"))
    var port: Int = Environment.int("PORT") ?? 8080

    @Option(help: ArgumentHelp("Worker threads (env CELLAR_THREADS; default: one per core the process may use).", valueName: "count"))
    var threads: Int = Environment.int("CELLAR_THREADS") ?? ServerConfiguration.activeProcessorCount

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical (env CELLAR_LOG_LEVEL).", valueName: "level"))
    var logLevel: String = Environment.string("CELLAR_LOG_LEVEL") ?? "info"

    @Option(help: ArgumentHelp("logfmt or json (env CELLAR_LOG_FORMAT).", valueName: "format"))
    var logFormat: String = Environment.string("CELLAR_LOG_FORMAT") ?? "logfmt"

    @Option(help: ArgumentHelp("Connections held open at once (env CELLAR_MAX_CONNECTIONS).", valueName: "count"))
    var maxConnections: Int = Environment.int("CELLAR_MAX_CONNECTIONS") ?? 1024

    @Option(help: ArgumentHelp("Connections from one address at once (env CELLAR_MAX_CONNECTIONS_PER_IP).", valueName: "count"))
    var maxConnectionsPerIP: Int = Environment.int("CELLAR_MAX_CONNECTIONS_PER_IP") ?? 256

    @Option(help: ArgumentHelp("Seconds an idle or stalled connection is kept (env CELLAR_TIMEOUT).", valueName: "seconds"))
    var timeout: Int = Environment.int("CELLAR_TIMEOUT") ?? 30

    @Option(
        help: ArgumentHelp(
            "Seconds a connection gets to send a whole request head, however slowly it trickles; 0: no limit (env CELLAR_HEADER_TIMEOUT).",
            valueName: "seconds"))
    var headerTimeout: Int = Environment.int("CELLAR_HEADER_TIMEOUT") ?? 10

    @Option(help: ArgumentHelp("Seconds in-flight responses get to finish after SIGTERM (env CELLAR_SHUTDOWN_GRACE).", valueName: "seconds"))
    var shutdownGrace: Int = Environment.int("CELLAR_SHUTDOWN_GRACE") ?? 10

    func validate() throws {
        try Environment.validate(
            "PORT", "CELLAR_THREADS", "CELLAR_MAX_CONNECTIONS", "CELLAR_MAX_CONNECTIONS_PER_IP", "CELLAR_TIMEOUT", "CELLAR_HEADER_TIMEOUT",
            "CELLAR_SHUTDOWN_GRACE")
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
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout must be between 1 and 3600 seconds (got \(timeout)).") }
        guard (0...3600).contains(headerTimeout) else {
            throw ValidationError("--header-timeout must be between 0 and 3600 seconds (got \(headerTimeout)).")
        }
        guard (0...600).contains(shutdownGrace) else {
            throw ValidationError("--shutdown-grace must be between 0 and 600 seconds (got \(shutdownGrace)).")
        }
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let format = LineLogHandler.Format(rawValue: logFormat) ?? .logfmt
        LoggingSystem.bootstrap { LineLogHandler(label: $0, format: format, level: level) }
        let logger = Logger(label: "cellar")

        let app = try self.app.makeApp(logger: logger)
        let configuration = ServerConfiguration(
            host: host, port: port, threads: threads, connectionLimit: maxConnections, perIPConnectionLimit: maxConnectionsPerIP,
            connectionTimeout: timeout, headerTimeout: headerTimeout, streamChunkSize: app.streamChunkSize, errorRenderer: app.errorRenderer)
        let server = Server(
            configuration: configuration, responder: app.makeRouter(), logger: logger, observer: app.metrics,
            accessLog: LineAccessLog(label: logger.label, format: format))

        // Block the stop signals before any worker thread exists, so every thread inherits the mask
        // and only `sigwait` below receives them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        do {
            try server.start()
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)", "host": "\(host)", "port": "\(port)"])
            throw ExitCode(70)
        }
        logger.info(
            "listening",
            metadata: [
                "address": "http://\(host.contains(":") ? "[\(host)]" : host):\(server.port)", "version": "\(cellarVersion)",
                "threads": "\(threads)", "public": "\(app.publicDirectory)",
            ])

        var received: Int32 = 0
        sigwait(&signals, &received)
        logger.info("stopping", metadata: ["signal": "\(received == SIGTERM ? "SIGTERM" : "SIGINT")", "grace_seconds": "\(shutdownGrace)"])
        server.stop(gracePeriod: .seconds(shutdownGrace))
        logger.info("stopped")
    }
}

struct Routes: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the routes the server mounts.")

    @OptionGroup var app: AppOptions

    func run() throws {
        var logger = Logger(label: "cellar")
        logger.logLevel = .critical
        let app = try self.app.makeApp(logger: logger)
        for route in app.makeRouter().routes {
            let method = route.method.rawValue
            print(method + String(repeating: " ", count: max(0, 7 - method.count)) + " \(route.pattern)")
        }
    }
}

struct Healthcheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Exit 0 if the server here answers GET /healthz with 200, else 1 (for a container HEALTHCHECK without curl).")

    @Option(help: ArgumentHelp("The server's address (env HOST; 0.0.0.0 and :: mean this machine's loopback).", valueName: "address"))
    var host: String = Environment.string("HOST") ?? "127.0.0.1"

    @Option(help: ArgumentHelp("The server's port (env PORT).", valueName: "port"))
    var port: Int = Environment.int("PORT") ?? 8080

    @Option(help: ArgumentHelp("Seconds to wait for connecting and for the answer.", valueName: "seconds"))
    var timeout: Int = 3

    func validate() throws {
        try Environment.validate("PORT")
        guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535 (got \(port)).") }
        guard (1...60).contains(timeout) else { throw ValidationError("--timeout must be between 1 and 60 seconds (got \(timeout)).") }
    }

    func run() throws {
        // A server listening on every address is reached on loopback.
        let target = host == "0.0.0.0" ? "127.0.0.1" : host == "::" || host == "[::]" ? "::1" : host
        let url = "http://\(target.contains(":") ? "[\(target)]" : target):\(port)/healthz"
        switch HealthProbe.statusLine(host: target, port: port, path: "/healthz", timeoutSeconds: timeout) {
        case .success(let statusLine) where statusLine.split(separator: " ").dropFirst().first == "200":
            print("healthy: \(url) answered \(statusLine)")
        case .success(let statusLine):
            writeToStandardError("unhealthy: \(url) answered \(statusLine)\n")
            throw ExitCode(1)
        case .failure(let problem):
            writeToStandardError("unhealthy: \(url): \(problem.message)\n")
            throw ExitCode(1)
        }
    }
}

/// One `GET` over a plain socket, enough to read the status line: the runtime image has no curl.
enum HealthProbe {
    struct Problem: Error {
        let message: String
    }

    static func statusLine(host: String, port: Int, path: String, timeoutSeconds: Int) -> Result<String, Problem> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var addresses: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &addresses)
        guard lookup == 0, let first = addresses else {
            return .failure(Problem(message: "cannot resolve '\(host)': \(String(cString: gai_strerror(lookup)))"))
        }
        defer { freeaddrinfo(first) }
        var lastError = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard descriptor >= 0 else {
                lastError = String(cString: strerror(errno))
                continue
            }
            defer { close(descriptor) }
            // On Linux SO_SNDTIMEO bounds connect() too.
            var time = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            guard connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
                lastError = "connect: \(String(cString: strerror(errno)))"
                continue
            }
            let authority = "\(host.contains(":") ? "[\(host)]" : host):\(port)"
            let request = Array("GET \(path) HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: cellar-healthcheck\r\nConnection: close\r\n\r\n".utf8)
            var sent = 0
            while sent < request.count {
                let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { return .failure(Problem(message: "send: \(String(cString: strerror(errno)))")) }
                sent += count
            }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1024)
            while !received.contains(UInt8(ascii: "\n")) && received.count < 8192 {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else {
                    let reason = count == 0 ? "connection closed before a status line" : "recv: \(String(cString: strerror(errno)))"
                    return .failure(Problem(message: reason))
                }
                received += buffer[..<count]
            }
            let line = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            guard line.hasPrefix("HTTP/") else { return .failure(Problem(message: "not an HTTP answer: '\(line.prefix(80))'")) }
            return .success(line)
        }
        return .failure(Problem(message: lastError))
    }
}

/// Environment fallbacks. A set but malformed number is remembered, not fatal here: default values
/// are evaluated for every subcommand (and for `--help`), so only the command that reads the
/// variable rejects it, in its `validate()`, rather than falling back to a default nobody asked for.
enum Environment {
    /// Malformed numeric variables seen so far, by name. Written only while the command line is
    /// parsed, on the main thread, before any other thread exists.
    nonisolated(unsafe) private static var malformed: [String: String] = [:]

    static func string(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    static func int(_ name: String) -> Int? {
        guard let value = string(name) else { return nil }
        guard let number = Int(value) else {
            malformed[name] = value
            return nil
        }
        return number
    }

    /// Throws for the first of `names` that is set to something other than a whole number.
    static func validate(_ names: String...) throws {
        for name in names {
            if let value = malformed[name] { throw ValidationError("\(name)='\(value)' is not a whole number.") }
        }
    }
}

// The Swift runtime on Linux reads the arguments from /proc/self/cmdline. Without /proc (a bare
// chroot) it sees none, and the server would start with defaults, ignoring every flag given.
if CommandLine.arguments.isEmpty {
    writeToStandardError("cellar: cannot read the command line (is /proc mounted?)\n")
    exit(70)
}
CellarCommand.main()

/// Writes a message to standard error, unbuffered (what is left of the process may be short).
func writeToStandardError(_ message: String) {
    var message = message
    message.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(STDERR_FILENO, bytes.baseAddress.unsafelyUnwrapped + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
