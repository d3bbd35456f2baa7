import ByteWriters
import TableKit

/// Read-only connections to one SQLite file, shared by the server's threads.
///
/// ``withConnection(_:)`` lends a connection to one thread at a time: an idle one, or a new one.
///
/// - **At the maximum.** When `maximumConnections` are open and all in use, a checkout opens a
///   temporary connection, closed after its use, instead of waiting. The server's worker threads
///   already bound how many requests run at once; a wait here would add a second queue with its own
///   timeout, and a thread that nests two checkouts could wait on itself. A temporary connection
///   costs an open and a cold page cache, so `maximumConnections` should be the worker thread count.
/// - **A replaced file.** Each checkout `stat`s the path, once. When its device and inode differ
///   from the file the idle connections were opened on (a new database moved into place with
///   `rename`), those are closed and the checkout opens the new file; connections in use finish on
///   the old file and are closed when they come back. (Replace a file in rollback-journal mode, or
///   with its `-wal` removed: SQLite finds a WAL file by name, and an old one beside a new file is
///   not it.) The status is lent with the connection (``SQLiteConnection/statusWhenLent``): a WAL
///   file's version (``DatabaseVersion``) is made with it, without a stat of its own.
/// - **A vanished file.** When the path names no file, idle connections go on serving the file they
///   have open (an unlinked file stays readable while it is open), so a deployment that removes the
///   old file a moment before moving the new one in causes no errors. A checkout that must open a
///   connection then fails with an error whose ``DatabaseError/isCantOpen`` is true.
public final class ConnectionPool: @unchecked Sendable {
    public let path: String
    /// The most connections kept open; beyond it, checkouts use temporary ones.
    public let maximumConnections: Int
    /// What every connection is made into when it is opened, before its first use.
    private let prepareConnection: (@Sendable (SQLiteConnection) throws(DatabaseError) -> Void)?

    /// A connection and the file it was opened on.
    private struct Entry {
        let connection: SQLiteConnection
        let identity: FileIdentity?
        /// False for a temporary connection, closed when it comes back.
        let pooled: Bool
    }

    private struct State {
        var idle: [Entry] = []
        /// Pooled connections open, idle or in use.
        var open = 0
        /// The file the path named at the last look.
        var identity: FileIdentity?
    }

    private let lock = Lock()
    /// Guarded by `lock`.
    private var state = State()

    /// Opens the first connection at once, so that a missing file, or one that is not a database,
    /// fails here, at start-up, with the connection's error.
    ///
    /// - Parameter prepareConnection: run on each connection as it is opened (the query page's
    ///   connections are restricted to reading this way).
    public init(
        path: String, maximumConnections: Int, prepareConnection: (@Sendable (SQLiteConnection) throws(DatabaseError) -> Void)? = nil
    ) throws(DatabaseError) {
        self.path = path
        // One at least: the first is opened here.
        self.maximumConnections = max(maximumConnections, 1)
        self.prepareConnection = prepareConnection
        let first = try Self.open(path: path, prepare: prepareConnection)
        state = State(idle: [Entry(connection: first.connection, identity: first.identity, pooled: true)], open: 1, identity: first.identity)
    }

    /// Runs `body` with a connection no other thread uses meanwhile, and takes it back afterwards.
    ///
    /// Statements left mid-rows are reset and a transaction left open is rolled back when the
    /// connection comes back. Do not keep the connection or its statements beyond `body`.
    public func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let entry = try checkOut()
        defer { checkIn(entry) }
        return try body(entry.connection)
    }

    /// Connections idle in the pool now (for tests and metrics).
    public var idleCount: Int { lock.withLock { state.idle.count } }

    private func checkOut() throws(DatabaseError) -> Entry {
        let status = FileStatus(path: path)
        let current = status?.identity
        var replaced: [Entry] = []
        let (reused, reserved) = lock.withLock { () -> (Entry?, Bool) in
            if let current, current != state.identity {
                state.identity = current
                replaced = state.idle
                state.idle.removeAll()
                state.open -= replaced.count
            }
            if let entry = state.idle.popLast() { return (entry, false) }
            guard state.open < maximumConnections else { return (nil, false) }
            state.open += 1
            return (nil, true)
        }
        replaced.removeAll()  // closes them, outside the lock
        if let reused {
            reused.connection.statusWhenLent = status
            return reused
        }
        do {
            let opened = try Self.open(path: path, prepare: prepareConnection)
            opened.connection.statusWhenLent = status
            return Entry(connection: opened.connection, identity: opened.identity, pooled: reserved)
        } catch {
            if reserved { lock.withLock { state.open -= 1 } }
            throw error
        }
    }

    /// Takes a connection back: idle again when it is pooled and its file is still the path's; otherwise
    /// it closes when the caller lets go of it, outside the lock.
    private func checkIn(_ entry: Entry) {
        entry.connection.prepareForReuse()
        guard entry.pooled else { return }
        lock.withLock {
            if entry.identity == state.identity {
                state.idle.append(entry)
            } else {
                state.open -= 1
            }
        }
    }

    /// Opens a connection and finds which file it opened: the path's identity before and after the
    /// open agree, or the file was being replaced meanwhile and the open is tried again.
    private static func open(path: String, prepare: (@Sendable (SQLiteConnection) throws(DatabaseError) -> Void)?) throws(DatabaseError)
        -> (connection: SQLiteConnection, identity: FileIdentity?)
    {
        var attempt = 0
        while true {
            let before = FileIdentity(path: path)
            let connection = try SQLiteConnection(path: path)
            let after = FileIdentity(path: path)
            attempt += 1
            if before == after || attempt == 3 {
                try prepare?(connection)
                return (connection, after)
            }
        }
    }
}
