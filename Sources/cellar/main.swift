// The executable: command line, configuration, wiring and signals. Everything it runs lives in
// the modules. No C callback may be defined here: main.swift is main-actor code, and a callback
// formed here would trap on libmicrohttpd's worker threads.
import ArgumentParser
import Cellar
import Foundation
import Logging
import MicroHTTP
import Showcase

struct CellarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cellar",
        abstract: "Serves lists the iOS table-view way: typed cells, reuse, sections — as HTML pages, fragments and JSON.",
        version: cellarVersion,
        subcommands: [Serve.self, Routes.self],
        defaultSubcommand: Serve.self
    )
}

let cellarVersion = "0.1.0"

/// Options shared by `serve` and `routes`, each with an environment fallback.
struct AppOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The folder with app.css, app.js and prototypes/ (env CELLAR_PUBLIC).", valueName: "path"))
    var `public`: String = Environment.string("CELLAR_PUBLIC") ?? "Public"

    func validate() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: `public`, isDirectory: &isDirectory), isDirectory.boolValue else {
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
            throw ValidationError("Cannot start: \(error)")
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

    @Option(help: ArgumentHelp("Worker threads (env CELLAR_THREADS; default: one per core).", valueName: "count"))
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

    @Option(help: ArgumentHelp("Seconds in-flight responses get to finish after SIGTERM (env CELLAR_SHUTDOWN_GRACE).", valueName: "seconds"))
    var shutdownGrace: Int = Environment.int("CELLAR_SHUTDOWN_GRACE") ?? 10

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535 (got \(port)).") }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be between 1 and 256 (got \(threads)).") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(logLevel)').")
        }
        guard LineLogHandler.Format(rawValue: logFormat) != nil else { throw ValidationError("--log-format must be logfmt or json (got '\(logFormat)').") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1 (got \(maxConnections)).") }
        guard maxConnectionsPerIP >= 1 else { throw ValidationError("--max-connections-per-ip must be at least 1 (got \(maxConnectionsPerIP)).") }
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout must be between 1 and 3600 seconds (got \(timeout)).") }
        guard (0...600).contains(shutdownGrace) else { throw ValidationError("--shutdown-grace must be between 0 and 600 seconds (got \(shutdownGrace)).") }
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let format = LineLogHandler.Format(rawValue: logFormat) ?? .logfmt
        LoggingSystem.bootstrap { LineLogHandler(label: $0, format: format, level: level) }
        let logger = Logger(label: "cellar")

        let app = try self.app.makeApp(logger: logger)
        let configuration = ServerConfiguration(
            host: host, port: port, threads: threads, connectionLimit: maxConnections, perIPConnectionLimit: maxConnectionsPerIP,
            connectionTimeout: timeout, streamChunkSize: app.streamChunkSize, errorRenderer: app.errorRenderer)
        let server = Server(configuration: configuration, responder: app.makeRouter(), logger: logger, observer: app.metrics)

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
            print("\(route.method.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) \(route.pattern)")
        }
    }
}

/// Environment fallbacks; a set but malformed number is kept as a string the option parser rejects.
enum Environment {
    static func string(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    static func int(_ name: String) -> Int? {
        guard let value = string(name) else { return nil }
        guard let number = Int(value) else {
            // Fail loudly rather than fall back to a default the operator did not ask for.
            FileHandle.standardError.write(Data("cellar: \(name)='\(value)' is not a whole number\n".utf8))
            exit(64)
        }
        return number
    }
}

CellarCommand.main()
