import ArgumentParser
import FoundationEssentials
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension App {
    /// Runs an app as a command-line program, and exits with its status: the one call an app's
    /// `main.swift` makes.
    ///
    /// ```swift
    /// import Cellar
    ///
    /// App.run(siteName: "Bookshelf") { app in
    ///     try app.register(BookCell.self)
    ///     try app.registerPrototypes()
    ///     app.list("/books", title: "Books") { _ in BookshelfController() }
    /// }
    /// ```
    ///
    /// The program has three commands: `serve` (the default) listens and serves the lists until
    /// SIGTERM or SIGINT, then lets responses in flight finish within the shutdown grace and exits
    /// 0; `routes` prints the mounted routes; `healthcheck` exits 0 when `/healthz` answers 200.
    /// Every flag has an environment variable (`--help` lists them). `serve` logs one line per
    /// event (logfmt or JSON) and one access line per request, and mounts `/healthz` and `/metrics`.
    ///
    /// `configure` is called once the command line is read, with an app whose public folder is the
    /// one given by `--public` (`Public` by default); then every list is checked (``validate()``)
    /// before the server starts. An error thrown by `configure` or found by the check ends the
    /// program with status 64 and a message; a server that cannot listen (a port in use) with 70.
    /// A signal is handled whichever thread receives it, including threads the app started before
    /// this call.
    ///
    /// - Parameters:
    ///   - siteName: the name in every page's header and title.
    ///   - version: the app's version, for `--version` and `/healthz`.
    ///   - arguments: the command line without the program's name (default: the process's).
    ///   - commands: subcommands of the program's own, beside `serve`, `routes` and `healthcheck`
    ///     (the `cellar` executable adds CellarDatabase's `database`).
    ///   - configure: registers the app's cells and mounts its lists.
    public static func run(
        siteName: String = "Cellar", version: String = "0.1.0", arguments: [String]? = nil, commands: [any ParsableCommand.Type] = [],
        _ configure: @escaping (App) throws -> Void
    ) -> Never {
        // The Swift runtime on Linux reads the arguments from /proc/self/cmdline. Without /proc (a
        // bare chroot) it sees none, and the server would start with defaults, ignoring every flag.
        if arguments == nil && CommandLine.arguments.isEmpty {
            writeToStandardError("cannot read the command line (is /proc mounted?)\n")
            exit(70)
        }
        let name = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "cellar") } ?? "cellar"
        AppCommand.program = Program(name: name, siteName: siteName, version: version, commands: commands, configure: configure)
        do {
            var command = try AppCommand.parseAsRoot(arguments ?? Array(CommandLine.arguments.dropFirst()))
            if let command = command as? any AppSubcommand {
                try command.run(AppCommand.program)
            } else {
                try command.run()
            }
            exit(0)
        } catch {
            AppCommand.exit(withError: error)
        }
    }
}

/// The program an ``App/run(siteName:version:arguments:_:)`` call describes.
struct Program {
    var name: String
    var siteName: String
    var version: String
    /// Subcommands the program adds.
    var commands: [any ParsableCommand.Type] = []
    var configure: (App) throws -> Void

    /// The app, configured by the program and checked, or exit status 64 with the reason.
    func makeApp(options: AppOptions, logger: Logger, showsErrorDetails: Bool = false, signIn: SignInFlags? = nil) throws -> App {
        let app = App(publicDirectory: options.publicDirectory, siteName: siteName, logger: logger)
        app.databasePath = options.databasePath
        app.databaseTimeLimit = options.databaseTimeLimit
        app.databaseConfigurationPath = options.configOption ?? EnvironmentVariables.string("CELLAR_CONFIG")
        app.databaseTemplatesPath = options.templatesOption ?? EnvironmentVariables.string("CELLAR_TEMPLATES")
        app.databaseAllowsSQL = !options.noSQL
        app.databaseCachesFacets = !options.noFacetCache
        app.databaseWritable = options.writableFlag || EnvironmentVariables.flag("CELLAR_WRITABLE")
        app.databaseRequiresIfMatch = options.requireIfMatchFlag || EnvironmentVariables.flag("CELLAR_REQUIRE_IF_MATCH")
        if options.corsFlag || EnvironmentVariables.flag("CELLAR_CORS") { app.crossOriginResourceSharing = CrossOriginResourceSharing() }
        app.version = version
        app.showsErrorDetails = showsErrorDetails
        app.isDevelopment = showsErrorDetails
        do {
            // Before `configure`, which may set a layout of its own instead.
            try app.loadLayout()
            // Accounts and permissions, from the file --config names: before `configure`, which may add its own.
            if let path = app.databaseConfigurationPath { app.access = try AccessConfiguration.load(path: path) }
            try configure(app)
            // Before the check, which makes the index (and with it the sign-in state) once.
            try signIn?.apply(to: app)
            try app.validate()
        } catch {
            // A configuration problem, not a usage one: the message alone, without a usage line.
            writeToStandardError("Error: Cannot start: \(error)\n")
            throw ExitCode.validationFailure
        }
        return app
    }
}

/// A subcommand that runs with the program it belongs to.
protocol AppSubcommand: ParsableCommand {
    func run(_ program: Program) throws
}

extension AppSubcommand {
    /// Not called: ``App/run(siteName:version:arguments:_:)`` calls `run(_:)` with the program.
    func run() throws { try run(AppCommand.program) }
}

/// The root command: `serve` (default), `routes`, `healthcheck`, and the program's own.
struct AppCommand: ParsableCommand {
    /// Set once by ``App/run(siteName:version:arguments:_:)`` before the command line is parsed
    /// (ArgumentParser reads ``configuration`` statically).
    nonisolated(unsafe) static var program = Program(name: "cellar", siteName: "Cellar", version: "0.1.0", configure: { _ in })

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: program.name,
            abstract: "Serves \(program.siteName)'s lists the iOS table-view way: typed cells, reuse, sections — as HTML pages, fragments and JSON.",
            discussion: """
                Environment (a flag wins over its variable):
                  HOST                            --host (serve, healthcheck)
                  PORT                            --port (serve, healthcheck)
                  CELLAR_PUBLIC                   --public (serve, routes)
                  CELLAR_DATABASE                 --database (serve, routes, database)
                  CELLAR_QUERY_TIME_LIMIT         --query-time-limit (serve, routes)
                  CELLAR_CONFIG                   --config (serve, routes): accounts, permissions, a database's lists
                  CELLAR_SECRET                   --secret-file (serve): session keys
                  CELLAR_PRIVATE                  --private (serve)
                  CELLAR_SESSION_LIFETIME         --session-lifetime (serve)
                  CELLAR_SECURE_COOKIES           --secure-cookies (serve)
                  CELLAR_TRUSTED_PROXIES          --trusted-proxy (serve), comma-separated
                  CELLAR_IDENTITY_HEADER          --identity-header (serve)
                  CELLAR_TEMPLATES                --templates (serve, routes)
                  CELLAR_THREADS                  --threads
                  CELLAR_LOG_LEVEL                --log-level
                  CELLAR_LOG_FORMAT               --log-format
                  CELLAR_MAX_CONNECTIONS          --max-connections
                  CELLAR_MAX_CONNECTIONS_PER_IP   --max-connections-per-ip
                  CELLAR_MAX_WATCHERS             --max-watchers
                  CELLAR_MAX_WATCHERS_PER_IP      --max-watchers-per-ip
                  CELLAR_TIMEOUT                  --timeout
                  CELLAR_HEADER_TIMEOUT           --header-timeout
                  CELLAR_SHUTDOWN_GRACE           --shutdown-grace
                  CELLAR_DEVELOPMENT              --development

                SIGTERM or SIGINT: stop accepting connections, let responses in flight
                finish for up to the shutdown grace, exit 0.
                Exit codes: 64 usage or configuration error, 70 cannot start (e.g. the
                port is taken), 1 healthcheck failed, 69 routes while a database is away.
                A PostgreSQL database away at start does not stop serve: it is not ready
                and answers 503 until the database is reached.
                """,
            version: program.version,
            subcommands: [ServeCommand.self, RoutesCommand.self, HealthcheckCommand.self, AccountCommand.self, TokenCommand.self] + program.commands,
            defaultSubcommand: ServeCommand.self
        )
    }
}

/// Options shared by `serve` and `routes`, each with an environment fallback.
struct AppOptions: ParsableArguments {
    @Option(
        name: .customLong("public"),
        help: ArgumentHelp(
            "The folder with the app's prototypes/ and files served under /static/ (env CELLAR_PUBLIC; default: Public).",
            valueName: "path"))
    var publicOption: String?

    /// The folder named by the flag or the variable, if either is set.
    private var namedFolder: String? { publicOption ?? EnvironmentVariables.string("CELLAR_PUBLIC") }

    /// The public folder: the one named, or `Public` in the working directory.
    var publicDirectory: String { namedFolder ?? "Public" }

    @OptionGroup var database: DatabaseOption

    /// The database named by the flag or the variable, if either is set.
    var databasePath: String? { database.location }

    @Option(
        name: .customLong("query-time-limit"),
        help: ArgumentHelp(
            "Seconds one database query may run before the request is answered 503 (env CELLAR_QUERY_TIME_LIMIT; default 1).",
            valueName: "seconds"))
    var timeLimitOption: Double?

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "The configuration, YAML: accounts and permissions, and a database's lists (env CELLAR_CONFIG; a database's default: beside a SQLite file, my.db → my.yaml; a URL has none).",
            valueName: "path"))
    var configOption: String?

    @Option(
        name: .customLong("templates"),
        help: ArgumentHelp("A folder of prototype templates for the database's cell rules (env CELLAR_TEMPLATES).", valueName: "path"))
    var templatesOption: String?

    @Flag(
        name: .customLong("no-sql"),
        help: "No SQL page: a database's /-/query (which runs a read-only statement a visitor writes) answers 404.")
    var noSQL = false

    @Flag(
        name: .customLong("no-facet-cache"),
        help:
            "Count a database's facets afresh on every page instead of once per version of the data: for measuring what the cache saves, not for serving."
    )
    var noFacetCache = false

    @Flag(
        name: .customLong("writable"),
        help: "Let the database be written (env CELLAR_WRITABLE): its tables take inserts, updates and deletes from those the permissions allow.")
    var writableFlag = false

    @Flag(
        name: .customLong("require-if-match"),
        help: "Refuse (428) a write to an existing row that names no version with If-Match (env CELLAR_REQUIRE_IF_MATCH).")
    var requireIfMatchFlag = false

    @Flag(
        name: .customLong("cors"),
        help: "Let pages on other sites read the JSON API (env CELLAR_CORS): Access-Control-Allow-Origin: * and preflight answers; never cookies.")
    var corsFlag = false

    /// The query time limit named by the flag or the variable, if either is set.
    var databaseTimeLimit: Double? { timeLimitOption ?? EnvironmentVariables.string("CELLAR_QUERY_TIME_LIMIT").flatMap(Double.init) }

    func validate() throws {
        if let limit = EnvironmentVariables.string("CELLAR_QUERY_TIME_LIMIT"), Double(limit) == nil {
            throw ValidationError("CELLAR_QUERY_TIME_LIMIT must be a number of seconds (got '\(limit)').")
        }
        if let limit = databaseTimeLimit, !(limit > 0 && limit <= 3600) {
            throw ValidationError("--query-time-limit must be more than 0 and at most 3600 seconds (got \(limit)).")
        }
        // A folder named on purpose must exist; the default may be absent (an app without
        // prototypes or files of its own serves the built-in stylesheet and script).
        guard let publicOption = namedFolder else { return }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: publicOption, isDirectory: &isDirectory), isDirectory else {
            throw ValidationError("The public folder '\(publicOption)' does not exist or is not a folder (set --public or CELLAR_PUBLIC).")
        }
    }
}
