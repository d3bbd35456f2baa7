import ByteWriters
import Cellar

/// Notices commits to a database made by any process, and tells the watchers of its lists.
///
/// While any of the database's lists is watched, Cellar's poller (``ListWatchers/poll(_:every:_:)``)
/// has it look at SQLite's `data_version` every ``DatabaseOptions/changePollInterval``, through
/// ``Database/currentVersion()``, which also sees what the server's own reads noticed; when it
/// moved, every watched window of those lists is rendered again and compared. It only reads:
/// Cellar never writes to a database it serves.
final class DatabaseChangeMonitor: Sendable {
    let database: Database
    /// The version seen at the last look (nil before the first, or while the file cannot be read).
    private let seen = Locked<String?>(nil)

    init(database: Database) {
        self.database = database
        seen.withLock { $0 = (try? database.currentVersion()) ?? nil }
    }

    /// Whether the database's version moved since the last look. A database that cannot be read
    /// just now is looked at again at the next tick.
    func versionMoved() -> Bool {
        guard let now = (try? database.currentVersion()) ?? nil else { return false }
        return seen.withLock { seen in
            defer { seen = now }
            return seen != now
        }
    }

    /// Has the watchers of the lists at `paths` told when the database changes.
    static func watch(_ database: Database, paths: Set<String>, watchers: ListWatchers) {
        let monitor = DatabaseChangeMonitor(database: database)
        watchers.poll(paths, every: .milliseconds(Int(database.options.changePollInterval * 1000))) { monitor.versionMoved() }
    }
}
