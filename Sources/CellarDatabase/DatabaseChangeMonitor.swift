import ByteWriters
import Cellar

/// Notices commits to a database made by any process, and tells the watchers of its lists.
///
/// While any of the database's lists is watched, Cellar's poller (``ListWatchers/poll(_:every:_:)``)
/// has it look at the database's version every ``DatabaseOptions/changePollInterval``: SQLite's
/// `data_version`, through ``Database/currentVersion()``, which also sees what the server's own
/// reads noticed; or, for a PostgreSQL database without the change log, its snapshot
/// (``DatabaseReader/snapshotVersion()``), which any write in the cluster moves. When it moved,
/// every watched window of those lists is rendered again and compared. It only reads: Cellar
/// never writes to a database it serves.
final class DatabaseChangeMonitor: Sendable {
    let version: @Sendable () throws -> String?
    /// The version seen at the last look (nil before the first, or while the database cannot be read).
    private let seen = Locked<String?>(nil)

    init(version: @escaping @Sendable () throws -> String?) {
        self.version = version
        seen.withLock { $0 = (try? version()) ?? nil }
    }

    /// Whether the database's version moved since the last look. A database that cannot be read
    /// just now is looked at again at the next tick.
    func versionMoved() -> Bool {
        guard let now = (try? version()) ?? nil else { return false }
        return seen.withLock { seen in
            defer { seen = now }
            return seen != now
        }
    }

    /// Has the watchers of the lists at `paths` told when the database changes.
    static func watch(_ database: Database, paths: Set<String>, watchers: ListWatchers) {
        let monitor =
            database.dialect == .sqlite
            ? DatabaseChangeMonitor { try database.currentVersion() }
            : DatabaseChangeMonitor { try database.read { reader in try reader.snapshotVersion() } }
        watchers.poll(paths, every: .milliseconds(Int(database.options.changePollInterval * 1000))) { monitor.versionMoved() }
    }
}
