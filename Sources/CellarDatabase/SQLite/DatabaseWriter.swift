import ByteWriters

/// The one connection through which Cellar writes to a SQLite file, when it is served
/// `--writable`: SQLite lets one writer in at a time anyway, so requests take turns here rather
/// than at the file's lock, and a turn never waits on another process for longer than the busy
/// timeout.
///
/// Every change is one transaction, begun `IMMEDIATE` (the write lock taken at once, so a
/// transaction never fails halfway for a lock it could not upgrade) and committed before it is
/// acknowledged. The file is in WAL mode, so readers never wait for the writer, with
/// `synchronous=NORMAL`: a committed change survives the process being killed (`kill -9`), as
/// the WAL is in the operating system's hands at commit; a power loss or an operating-system
/// crash may lose the last commits before a checkpoint, never corrupt the file. `FULL` would
/// survive a power loss too, at about a seventh of the rate (BENCHMARKS.md, "Writes").
/// `foreign_keys` is on, so a row that references a missing one is refused.
final class DatabaseWriter: @unchecked Sendable {
    let path: String
    private let connection: SQLiteConnection
    /// `BEGIN IMMEDIATE` and `COMMIT`, prepared once and kept here: every change runs both, so
    /// neither is looked up by its text in the connection's cache.
    private let begin: SQLiteStatement
    private let commit: SQLiteStatement
    /// Guards `connection`: one change at a time.
    private let lock = Lock()

    /// Opens the file for writing and puts it in WAL mode (a change of the file that stays: its
    /// readers, in any process, read beside the writer from then on).
    init(path: String) throws(DatabaseError) {
        self.path = path
        connection = try SQLiteConnection(path: path, readOnly: false)
        try connection.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
        begin = try SQLiteStatement(connection: connection.handle, sql: "BEGIN IMMEDIATE")
        commit = try SQLiteStatement(connection: connection.handle, sql: "COMMIT")
    }

    /// Runs `body` as one transaction (`BEGIN IMMEDIATE` … `COMMIT`), rolled back whole when it
    /// throws: a change is all there or not at all.
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try lock.withLock {
            defer { connection.resetStatements() }
            try run(begin)
            do {
                let result = try body(connection)
                try run(commit)
                return result
            } catch {
                connection.resetStatements()
                if connection.isInTransaction { try? run(connection.statement("ROLLBACK")) }
                throw error
            }
        }
    }

    /// Runs a statement of no rows (`BEGIN`, `COMMIT`, `ROLLBACK`) and resets it.
    private func run(_ statement: SQLiteStatement) throws(DatabaseError) {
        defer { statement.reset() }
        _ = try statement.step()
    }
}
