import ByteWriters
import Synchronization

/// The version of a database's contents that validators are made from, told from the file alone:
/// every replica serving the same file labels the same contents alike, a restart keeps the labels,
/// and two contents never share one.
///
/// What it is made of depends on the file's journal mode (the header's bytes 18 and 19):
///
/// - **Rollback journal** (`DELETE`, `TRUNCATE`, `PERSIST`): every commit increments the header's
///   file change counter (bytes 24-27). The version is the file's identity (device and inode: a
///   file moved into place by `rename` is another), its size and modification time, and the
///   header's change counter and page count, read inside one read transaction, whose shared lock
///   keeps writers out meanwhile. Only a commit changes it, so a connection keeps it until
///   `PRAGMA data_version` says another connection has committed.
/// - **WAL**: a commit appends frames to the `-wal` file and leaves the main file, change counter
///   included, as it was. The version is the file's identity and the WAL-index header (the `-shm`
///   file's first 48 bytes, the same memory for every process that has the file open): the count
///   of valid frames, the last frame's running checksum, and the log's salts, which a writer draws
///   anew, one at random, each time it starts the log over. While the log has no frame (just
///   started over, or rebuilt from no log at all, when the salts are zero) the contents are the
///   main file's alone, and it cannot change until a frame is committed: its size and
///   modification time go in too. A checkpoint that starts the log over changes the header
///   without a commit, so the header is read at every look, not kept: replicas agree again after
///   one, whenever each of them started. The file's status is the one the pool took when it lent
///   the connection, a moment before the header is read: the main file changes only when a
///   checkpoint copies frames into it, and a log started over after that has new salts, so an
///   older status never makes two contents' versions alike.
///
/// Where the file cannot be read that way (the shared memory cannot be mapped, the path names
/// another file than the connection's), the version is this process's alone: a number drawn at
/// start and a generation moved on whenever a connection sees a commit. Validators are then still
/// right, but differ between replicas and change at a restart.
///
/// A page is labelled with the version read before its rows are, so a label is never newer than
/// the rows under it.
final class DatabaseVersion: Sendable {
    /// What a look at the file through one connection found, kept on the connection.
    struct Journal {
        enum Mode {
            /// Rollback journal: the version, until the next commit.
            case rollback(String)
            /// WAL: the version is read from the WAL-index header at each look.
            case wal
            /// Neither could be read: this process's own version.
            case unknown
        }
        /// The connection's `data_version` at the look.
        var dataVersion: Int64
        /// The schema's `schema_version` at the look: every change of the schema moves it, and is a
        /// commit, which moves `data_version` too.
        var schemaVersion: Int64
        var mode: Mode
    }

    private let boot = UInt64.random(in: .min ... .max)
    private let generation = Atomic<UInt64>(0)

    /// The version as of `connection`'s latest look at the file.
    func observe(_ connection: SQLiteConnection) throws -> String {
        try observeWithSchema(connection).version
    }

    /// The version and the schema's version as of `connection`'s latest look at the file.
    func observeWithSchema(_ connection: SQLiteConnection) throws -> (version: String, schemaVersion: Int64) {
        let current = try connection.dataVersion
        let journal: Journal
        if let seen = connection.observedJournal, seen.dataVersion == current {
            journal = seen
        } else {
            // Another connection committed, or this one has not looked yet.
            generation.add(1, ordering: .sequentiallyConsistent)
            let (schemaVersion, mode) = try Self.look(at: connection)
            journal = Journal(dataVersion: current, schemaVersion: schemaVersion, mode: mode)
            connection.observedJournal = journal
        }
        switch journal.mode {
        case .rollback(let version): return (version, journal.schemaVersion)
        case .wal: if let version = Self.walVersion(connection) { return (version, journal.schemaVersion) }
        case .unknown: break
        }
        return (String(boot, radix: 36) + "-" + String(generation.load(ordering: .sequentiallyConsistent), radix: 36), journal.schemaVersion)
    }

    /// The schema's version, the journal mode from the file's header, and a rollback-journal file's version.
    private static func look(at connection: SQLiteConnection) throws -> (Int64, Journal.Mode) {
        try connection.read {
            // A read, so the transaction holds the file's shared lock from here on.
            let schemaVersion = try connection.schemaVersion
            guard let header = connection.databaseHeader() else { return (schemaVersion, .unknown) }
            if header[18] == 2 && header[19] == 2 { return (schemaVersion, .wal) }
            guard let status = connection.fileStatus() else { return (schemaVersion, .unknown) }
            var hash = StableHash()
            combine(status, into: &hash)
            hash.combine(bytes: Array(header[24..<32]))
            return (schemaVersion, .rollback("r" + String(hash.value, radix: 16)))
        }
    }

    /// A WAL file's version now; nil when its WAL-index header or its status cannot be read.
    private static func walVersion(_ connection: SQLiteConnection) -> String? {
        guard let header = connection.walIndexHeader(), let status = connection.fileStatusWhenLent() else { return nil }
        var hash = StableHash()
        hash.combine(status.identity.device)
        hash.combine(status.identity.inode)
        hash.combine(bytes: header)
        // Bytes 16-19 are the count of valid frames (mxFrame), in the machine's byte order.
        if header[16..<20].allSatisfy({ $0 == 0 }) { combine(status, into: &hash) }
        return "w" + String(hash.value, radix: 16)
    }

    private static func combine(_ status: FileStatus, into hash: inout StableHash) {
        hash.combine(status.identity.device)
        hash.combine(status.identity.inode)
        hash.combine(UInt64(bitPattern: status.size))
        hash.combine(UInt64(bitPattern: status.modifiedSeconds))
        hash.combine(UInt64(bitPattern: status.modifiedNanoseconds))
    }
}
