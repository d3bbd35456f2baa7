import ByteWriters
import MicroHTTP

/// A database served read-only — a SQLite file, or a PostgreSQL database — its schema, a pool of
/// connections for the server's threads, and the version its pages' validators follow.
///
/// ```swift
/// let database = try Database(path: "books.db")
/// try app.mount(database)   // `/` lists its tables; every table and view is a list
///
/// let shared = try Database(postgres: PostgresConnectionInfo("postgres://reader@db.internal/books"))
/// ```
///
/// Cellar never writes to it unless ``DatabaseOptions/writable`` says so: every SQLite connection
/// it reads through is opened read-only, and every PostgreSQL read is a `READ ONLY` transaction (a
/// role with SELECT rights alone is enough). Served writable, a SQLite file's changes go through
/// one ``DatabaseWriter``, a PostgreSQL database's through pooled read-write transactions as the
/// URL's role (``tableWriter(for:)``).
public final class Database: Sendable {
    /// The SQLite file's path, or the PostgreSQL connection's description, its password redacted.
    public let path: String
    public let schema: DatabaseSchema
    public let options: DatabaseOptions
    let engine: Engine
    /// The connection changes go through, when the database is served writable (SQLite's; nil
    /// when Cellar only reads).
    let writer: DatabaseWriter?
    let version = DatabaseVersion()
    let counts = CountCache()
    /// Facets' counts, and which columns to suggest as facets, by query, per version of the data.
    let facets = VersionedCache<Facet>()
    let suggestedFacets = VersionedCache<[Int]>(capacity: 256)
    /// PostgreSQL's last look at its catalogue: the snapshot it was taken at, and the catalogue's fingerprint then.
    private let catalogLook = Locked<(snapshot: String, fingerprint: String)?>(nil)

    /// Where the connections come from.
    enum Engine: Sendable {
        case sqlite(ConnectionPool)
        case postgres(PostgresPool)
    }

    /// The name `/readyz` shows: the file's name (not its folder), or the PostgreSQL database's.
    let displayName: String

    var dialect: SQLDialect {
        switch engine {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    /// Opens the file and reads its schema.
    ///
    /// - Throws: ``DatabaseOpenError`` when the file is missing, not a SQLite database, locked or unreadable.
    public init(path: String, options: DatabaseOptions = DatabaseOptions()) throws(DatabaseOpenError) {
        self.path = path
        self.options = options
        displayName = path.split(separator: "/").last.map(String.init) ?? path
        do {
            // The readers first: their first open fails on a missing file, where the writer's would make one.
            let pool = try ConnectionPool(path: path, maximumConnections: options.connections)
            writer = options.writable ? try DatabaseWriter(path: path) : nil
            engine = .sqlite(pool)
            schema = try pool.withConnection { connection in try DatabaseSchema(connection: connection) }
        } catch let error as DatabaseError {
            throw DatabaseOpenError(path: path, underlying: error)
        } catch {
            throw DatabaseOpenError(path: path, underlying: DatabaseError(extendedResultCode: 1, message: "\(error)"))
        }
    }

    /// Connects to a PostgreSQL database and reads the schema of the tables and views its
    /// `search_path` shows (``DatabaseSchema/init(postgres:deadline:)``).
    ///
    /// Each connection's `statement_timeout` is the query time limit, and each read waits for the
    /// server until that limit too (``PostgresDeadline``): a server that stops answering costs a
    /// request no more.
    ///
    /// - Parameter startDeadline: how long the first connection and the schema's queries may take.
    /// - Throws: ``DatabaseOpenError`` when the server cannot be reached, refuses the role, or the
    ///   schema cannot be read; its ``DatabaseOpenError/postgresError`` says which, and
    ///   ``DatabaseOpenError/isTransient`` whether it is worth trying again unchanged.
    public init(postgres info: PostgresConnectionInfo, options: DatabaseOptions = DatabaseOptions(), startDeadline: Double = 10)
        throws(DatabaseOpenError)
    {
        path = info.description
        self.options = options
        let pool = PostgresPool(info: info, maximumConnections: options.connections, statementTimeout: options.timeLimit)
        engine = .postgres(pool)
        writer = nil
        do {
            let deadline = PostgresDeadline.seconds(startDeadline)
            (schema, displayName) = try pool.withConnection(deadline: deadline) { connection in
                let schema = try DatabaseSchema(postgres: connection, deadline: deadline)
                let name = try connection.query("SELECT current_database()", deadline: deadline).rows.first?.first
                guard case .text(let name)? = name else { return (schema, "postgres") }
                return (schema, name)
            }
        } catch let error as PostgresError {
            throw DatabaseOpenError(postgres: error, description: info.description)
        } catch {
            throw DatabaseOpenError(postgres: .unavailable(connection: info.description, message: "\(error)"), description: info.description)
        }
    }

    /// Opens what `--database` names: a `postgres://` or `postgresql://` URL (libpq's `PG*`
    /// variables fill in what it leaves out), else a SQLite file's path.
    public static func open(_ location: String, options: DatabaseOptions = DatabaseOptions()) throws -> Database {
        guard PostgresConnectionInfo.isURL(location) else { return try Database(path: location, options: options) }
        return try Database(postgres: PostgresConnectionInfo(location), options: options)
    }

    /// The contents' version as of now, for validators: SQLite's from one `PRAGMA data_version`, no
    /// query of the data. Nil for PostgreSQL, which has no such counter: its pages' `ETag`s are
    /// hashes of their bytes, the same on every replica.
    func currentVersion() throws -> String? {
        guard case .sqlite(let pool) = engine else { return nil }
        return try reading(pool) { connection in try version.observe(connection) }
    }

    /// The contents' version (``currentVersion()``) and the schema's, as of now: SQLite's
    /// `schema_version`, read when `data_version` moved; PostgreSQL's catalogue fingerprint
    /// (``DatabaseSchema/postgresFingerprintSQL``), asked again when the snapshot moved since the last look.
    func currentVersions() throws -> (data: String?, schema: String) {
        switch engine {
        case .sqlite(let pool):
            let observed = try reading(pool) { connection in try version.observeWithSchema(connection) }
            return (observed.version, String(observed.schemaVersion))
        case .postgres(let pool):
            let deadline = PostgresDeadline.seconds(options.timeLimit)
            let fingerprint = try Self.answering(options.timeLimit) {
                try pool.withConnection(deadline: deadline) { connection in
                    let snapshot = try connection.query("SELECT pg_catalog.pg_current_snapshot()::text", deadline: deadline).rows.first?.first
                    guard case .text(let snapshot)? = snapshot else { return "" }
                    if let look = catalogLook.withLock({ $0 }), look.snapshot == snapshot { return look.fingerprint }
                    let found = try connection.query(DatabaseSchema.postgresFingerprintSQL, deadline: deadline).rows.first?.first
                    guard case .text(let fingerprint)? = found else { return "" }
                    catalogLook.withLock { $0 = (snapshot, fingerprint) }
                    return fingerprint
                }
            }
            return (nil, fingerprint)
        }
    }

    /// The schema as it is now (after a migration, say), read as at start.
    func readSchema() throws -> DatabaseSchema {
        switch engine {
        case .sqlite(let pool):
            return try reading(pool) { connection in try DatabaseSchema(connection: connection) }
        case .postgres(let pool):
            let deadline = PostgresDeadline.seconds(options.timeLimit)
            return try Self.answering(options.timeLimit) {
                try pool.withConnection(deadline: deadline) { connection in try DatabaseSchema(postgres: connection, deadline: deadline) }
            }
        }
    }

    /// Reads within the query time limit, as a list's first query would: throws the 503
    /// ``HTTPError`` a list would answer when the database cannot be read (what `/readyz` asks).
    func checkReadable() throws {
        switch engine {
        case .sqlite: _ = try read { connection in try connection.integer("SELECT count(*) FROM sqlite_schema", []) }
        case .postgres: _ = try read { connection in try connection.integer("SELECT 1", []) }
        }
    }

    /// Runs `body` with a connection, inside one read-only snapshot (a SQLite read transaction; a
    /// PostgreSQL `REPEATABLE READ, READ ONLY` one), within the query time limit: a count and the
    /// page it numbers agree. A query stopped by the limit, a database busy past it or one that
    /// cannot be reached is a 503 with `Retry-After`.
    ///
    /// - Parameter timeLimit: seconds the read may take, when less than the query time limit (a
    ///   facet's share of its request's budget).
    func read<T>(timeLimit: Double? = nil, _ body: (any DatabaseReader) throws -> T) throws -> T {
        let timeLimit = min(timeLimit ?? options.timeLimit, options.timeLimit)
        switch engine {
        case .sqlite(let pool):
            return try reading(pool, timeLimit: timeLimit) { connection in
                try connection.withDeadline(seconds: timeLimit) {
                    try connection.read { try body(connection) }
                }
            }
        case .postgres(let pool):
            let deadline = PostgresDeadline.seconds(timeLimit)
            return try Self.answering(timeLimit) {
                try pool.withConnection(deadline: deadline) { connection in
                    let reader = PostgresReader(connection: connection, deadline: deadline)
                    try reader.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    do {
                        let result = try body(reader)
                        try reader.execute("COMMIT")
                        return result
                    } catch {
                        connection.rollBack()
                        throw error
                    }
                }
            }
        }
    }

    private func reading<T>(_ pool: ConnectionPool, timeLimit: Double? = nil, _ body: (SQLiteConnection) throws -> T) throws -> T {
        do {
            return try pool.withConnection(body)
        } catch let error as DatabaseError where error.isInterrupted {
            throw Self.overTimeLimit(timeLimit ?? options.timeLimit)
        } catch let error as DatabaseError where error.isBusy || error.isCantOpen {
            throw Self.unavailable
        } catch let error as DatabaseError where error.message.hasPrefix("no such column") || error.message.hasPrefix("no such table") {
            // A list made from the schema before a migration that reached the file meanwhile.
            throw Self.schemaChanged
        }
    }

    /// Runs a PostgreSQL read, its errors told as a list answers them: the time limit passed (the
    /// connection's deadline, or `statement_timeout`) or the server away is a 503; a value that
    /// does not fit its column's type (a filter's `2024-13-01` for a date), or a NUL character,
    /// which PostgreSQL's text cannot hold, a 400. Anything else is the server's own error (a 500).
    private static func answering<T>(_ timeLimit: Double, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError {
            switch error {
            case .timedOut: throw overTimeLimit(timeLimit)
            case .server(let server) where server.sqlState == "57014": throw overTimeLimit(timeLimit)
            case .unavailable, .connectionFailed: throw unavailable
            case .server(let server) where server.isTransient: throw unavailable
            case .server(let server) where server.sqlState == "42703" || server.sqlState == "42P01": throw schemaChanged
            case .server(let server) where server.sqlState.hasPrefix("22"):
                throw HTTPError.badRequest("A value does not fit its column: \(server.message).")
            case .invalidParameter:
                throw HTTPError.badRequest("A value holds a NUL character (U+0000), which this database's text cannot hold.")
            default: throw error
            }
        }
    }

    private static func overTimeLimit(_ timeLimit: Double) -> HTTPError {
        HTTPError(
            .serviceUnavailable, "The query took longer than its limit of \(seconds(timeLimit)): try a narrower filter, or again later.",
            headers: ["Retry-After": "1"])
    }

    /// A statement written for the schema as it was: the next request reads the new one.
    static var schemaChanged: HTTPError {
        HTTPError(.serviceUnavailable, "The database’s schema changed while this was read: reload the page.", headers: ["Retry-After": "1"])
    }

    private static var unavailable: HTTPError {
        HTTPError(.serviceUnavailable, "The database cannot be read just now; try again shortly.", headers: ["Retry-After": "1"])
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// Why a database cannot be served, with what to do about it.
public struct DatabaseOpenError: Error, CustomStringConvertible, Sendable {
    /// The SQLite file's path, or the PostgreSQL connection's description (its password redacted).
    public let path: String
    public let underlying: DatabaseError
    /// PostgreSQL's error, when the database is PostgreSQL's.
    public let postgresError: PostgresError?

    /// Whether the database is away for now rather than refusing: a PostgreSQL server not reached,
    /// not accepting connections yet, or not answering the schema's queries in time
    /// (``PostgresError/isTransient``). Never for a SQLite file: a file that is not there is a
    /// mistake to fix, not a server to wait for.
    public var isTransient: Bool { postgresError?.isTransient ?? false }

    public init(path: String, underlying: DatabaseError) {
        self.path = path
        self.underlying = underlying
        postgresError = nil
    }

    init(postgres error: PostgresError, description: String) {
        path = description
        // SQLITE_CANTOPEN (14), so that code asking `isCantOpen` reads a database out of reach as one.
        underlying = DatabaseError(extendedResultCode: 14, message: error.description)
        postgresError = error
    }

    public var description: String {
        if let postgresError { return "Cannot serve the PostgreSQL database: \(postgresError)" }
        if underlying.isNotADatabase { return "'\(path)' is not a SQLite database (\(underlying.message))" }
        if underlying.isBusy { return "'\(path)' is locked by another process (\(underlying.message)); try again when it is done" }
        if underlying.isCantOpen { return "Cannot open the database '\(path)': \(underlying.message)" }
        return "Cannot read the database '\(path)': \(underlying.message)"
    }
}
