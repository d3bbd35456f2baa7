import Cellar
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Notices commits to a database made by any process, and tells the watchers of its lists.
///
/// While any of the database's lists is watched, one thread looks at SQLite's `data_version`
/// every ``DatabaseOptions/changePollInterval`` (through ``Database/currentVersion()``, which also
/// sees what the server's own reads noticed) and, when it moved, has every watched window of those
/// lists rendered again and compared (``ListWatchers/listDidChange(at:)``). The thread ends when no
/// list of the database is watched any more, and starts again with the next watcher. It only reads:
/// Cellar never writes to a database it serves.
final class DatabaseChangeMonitor: Sendable {
    let database: Database
    let paths: Set<String>
    let watchers: ListWatchers
    private let running = Mutex(false)

    init(database: Database, paths: Set<String>, watchers: ListWatchers) {
        self.database = database
        self.paths = paths
        self.watchers = watchers
    }

    /// Starts the polling thread unless it runs already.
    func start() {
        let starts = running.withLock { running in
            if running { return false }
            running = true
            return true
        }
        guard starts else { return }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self)
        let created = pthread_create(
            &thread, nil,
            { context in
                let monitor = Unmanaged<DatabaseChangeMonitor>.fromOpaque(context!).takeRetainedValue()
                monitor.run()
                return nil
            }, context.toOpaque())
        guard created == 0 else {
            context.release()
            running.withLock { $0 = false }
            return
        }
        pthread_detach(thread)
    }

    private func run() {
        var seen = try? database.currentVersion()
        while true {
            while watchers.isWatched(paths) {
                Self.sleep(database.options.changePollInterval)
                // A database that cannot be read just now is looked at again at the next tick.
                guard let now = try? database.currentVersion(), now != seen else { continue }
                seen = now
                for path in paths { watchers.listDidChange(at: path) }
            }
            // Stop, unless a watcher arrived since the last look: its start found the thread running.
            let stops = running.withLock { running in
                if watchers.isWatched(paths) { return false }
                running = false
                return true
            }
            if stops { return }
        }
    }

    private static func sleep(_ seconds: Double) {
        let clamped = max(0.01, seconds)
        var time = timespec(tv_sec: Int(clamped), tv_nsec: Int((clamped - clamped.rounded(.down)) * 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&time, &remaining) != 0 && errno == EINTR { time = remaining }
    }
}
