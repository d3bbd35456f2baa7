import MicroHTTP

/// A SQLite file served read-only: its schema, a pool of connections for the server's threads,
/// and the version its pages' validators follow.
///
/// ```swift
/// let database = try Database(path: "books.db")
/// try app.mount(database)   // `/` lists its tables; every table and view is a list
/// ```
///
/// Cellar never writes to it: every connection is opened read-only.
public final class Database: Sendable {
    public let path: String
    public let schema: DatabaseSchema
    public let options: DatabaseOptions
    let pool: ConnectionPool
    let version = DatabaseVersion()
    let counts = CountCache()

    /// Opens the file and reads its schema.
    ///
    /// - Throws: ``DatabaseOpenError`` when the file is missing, not a SQLite database, locked or unreadable.
    public init(path: String, options: DatabaseOptions = DatabaseOptions()) throws(DatabaseOpenError) {
        self.path = path
        self.options = options
        do {
            pool = try ConnectionPool(path: path, maximumConnections: options.connections)
            schema = try pool.withConnection { connection in try DatabaseSchema(connection: connection) }
        } catch let error as DatabaseError {
            throw DatabaseOpenError(path: path, underlying: error)
        } catch {
            throw DatabaseOpenError(path: path, underlying: DatabaseError(extendedResultCode: 1, message: "\(error)"))
        }
    }

    /// The contents' version as of now (one `PRAGMA data_version`, no query of the data).
    func currentVersion() throws -> String {
        try reading { connection in try version.observe(connection) }
    }

    /// Reads the schema table within the query time limit, as a list's first query would: throws
    /// the 503 ``HTTPError`` a list would answer when the file cannot be read (what `/readyz` asks).
    func checkReadable() throws {
        try read { connection in try connection.execute("SELECT count(*) FROM sqlite_schema") }
    }

    /// Runs `body` with a connection, inside one read transaction, within the query time limit.
    /// A query stopped by the limit, or a database busy past it, is a 503 with `Retry-After`.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try reading { connection in
            try connection.withDeadline(seconds: options.timeLimit) {
                try connection.read { try body(connection) }
            }
        }
    }

    private func reading<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        do {
            return try pool.withConnection(body)
        } catch let error as DatabaseError where error.isInterrupted {
            throw HTTPError(
                .serviceUnavailable,
                "The query took longer than its limit of \(Self.seconds(options.timeLimit)): try a narrower filter, or again later.",
                headers: ["Retry-After": "1"])
        } catch let error as DatabaseError where error.isBusy || error.isCantOpen {
            throw HTTPError(.serviceUnavailable, "The database cannot be read just now; try again shortly.", headers: ["Retry-After": "1"])
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// Why a database cannot be served, with what to do about it.
public struct DatabaseOpenError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let underlying: DatabaseError

    public var description: String {
        if underlying.isNotADatabase { return "'\(path)' is not a SQLite database (\(underlying.message))" }
        if underlying.isBusy { return "'\(path)' is locked by another process (\(underlying.message)); try again when it is done" }
        if underlying.isCantOpen { return "Cannot open the database '\(path)': \(underlying.message)" }
        return "Cannot read the database '\(path)': \(underlying.message)"
    }
}
