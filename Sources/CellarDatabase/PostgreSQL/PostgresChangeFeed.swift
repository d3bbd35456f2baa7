import ByteWriters
import Cellar
import Synchronization

/// Tells the watchers of a PostgreSQL database's lists what changed, from its change log
/// (``PostgresChangeLog``): a connection of its own `LISTEN`s to `cellar_changes` while any of the
/// lists is watched, and each notification — a change's id and table — has the lists over that
/// table rendered again, and the lists over views, whose tables Cellar does not know. As the
/// log's ``ListChangeLog``, it numbers the lists' batches by the log's ids, so that a client's
/// `Last-Event-ID` means the same on every replica.
///
/// - **Listening only while watched**: ``ListWatchers/follow(_:_:stopped:)`` runs
///   ``nextChanges()`` on a thread of its own from the first watcher on and ends it, closing the
///   connection, once no list is watched nor kept for a returning client.
/// - **A lost connection** (the server restarted, `pg_terminate_backend`) is made again with a
///   backoff — 0.1 s doubling up to 5 s — and then the log says which lists changed since the
///   newest change heard: notifications sent meanwhile were missed, but only those lists are
///   rendered again (all of them when the log cannot say). The first connection renders every
///   list again, for changes made between a window's first render and the `LISTEN`. A render
///   that finds nothing different sends nothing.
final class PostgresChangeFeed: ListChangeLog {
    let database: Database
    let info: PostgresConnectionInfo
    /// The lists over each table, by the table's name.
    let listsByTable: [String: Set<String>]
    /// The lists over views: any table's change may change them.
    let viewLists: Set<String>
    let allLists: Set<String>
    /// The newest id seen: positions never go back, even when the log cannot be read.
    private let newest = Atomic<UInt64>(0)
    private let listener = Locked(Listener())
    private let warn: @Sendable (String) -> Void

    /// The listening connection, used by the following thread alone.
    private struct Listener {
        var connection: PostgresConnection?
        /// Attempts that failed since the last connection was made.
        var failures = 0
        /// The newest change a notification told of, 0 before the first: every change up to it
        /// has been handed to the watchers. (Not ``newest``, which a window's first render also
        /// moves, to a position whose notification may be lost with the connection.)
        var heard: UInt64 = 0
    }

    init(
        database: Database, info: PostgresConnectionInfo, lists: [(path: String, table: String, isView: Bool)],
        warn: @escaping @Sendable (String) -> Void
    ) {
        self.database = database
        self.info = info
        var byTable: [String: Set<String>] = [:]
        for list in lists where !list.isView { byTable[list.table, default: []].insert(list.path) }
        listsByTable = byTable
        viewLists = Set(lists.filter(\.isView).map(\.path))
        allLists = Set(lists.map(\.path))
        self.warn = warn
    }

    // MARK: ListChangeLog

    func currentPosition() -> UInt64 {
        guard let read = try? database.read({ reader in try reader.integer(PostgresChangeLog.positionSQL, []) }) else {
            return newest.load(ordering: .sequentiallyConsistent)
        }
        return newest.max(UInt64(max(read, 0)), ordering: .sequentiallyConsistent).newValue
    }

    func hasChanged(listAt path: String, since position: UInt64) -> Bool {
        let table = viewLists.contains(path) ? nil : listsByTable.first { $0.value.contains(path) }?.key
        return hasChanged(table: table, since: position)
    }

    /// Whether `table` (any table, when nil) changed after `position`; true when the log cannot say.
    private func hasChanged(table: String?, since position: UInt64) -> Bool {
        guard position <= UInt64(Int64.max) else { return true }
        let changed = try? database.read { reader in
            try reader.integer(PostgresChangeLog.changedSinceSQL, [.integer(Int64(position)), table.map { .text($0) } ?? .null])
        }
        return changed != 0
    }

    /// The lists whose tables changed after `position` (every list when it is 0: nothing was heard).
    func listsChanged(since position: UInt64) -> Set<String> {
        guard position > 0 else { return allLists }
        var changed = Set<String>()
        for (table, lists) in listsByTable where hasChanged(table: table, since: position) { changed.formUnion(lists) }
        if !viewLists.isEmpty, hasChanged(table: nil, since: position) { changed.formUnion(viewLists) }
        return changed
    }

    // MARK: Listening

    /// Waits up to a second for notifications and returns the lists they change; makes the
    /// listening connection first when there is none (then the lists changed since the newest
    /// change heard: notifications may have been missed).
    func nextChanges() -> Set<String> {
        listener.withLock { listener in
            guard let connection = listener.connection else {
                if listener.failures > 0 { Threads.sleep(min(.milliseconds(100 << min(listener.failures - 1, 6)), .seconds(5))) }
                do {
                    let connection = try PostgresConnection(info, statementTimeout: database.options.timeLimit, deadline: .seconds(10))
                    try connection.listen(PostgresChangeLog.channel, deadline: .seconds(10))
                    listener.connection = connection
                    // Listening first, the log read after: a change is either heard or read.
                    let changed = listsChanged(since: listener.heard)
                    if listener.failures > 0 {
                        warn("listening for the database's changes again; lists changed meanwhile are rendered again: \(changed.count)")
                    }
                    listener.failures = 0
                    return changed
                } catch {
                    if listener.failures == 0 { warn("cannot listen for the database's changes; trying again: \(error)") }
                    listener.failures += 1
                    return []
                }
            }
            do {
                var changed = Set<String>()
                for notification in try connection.notifications(waitingUntil: .seconds(1)) {
                    let parts = notification.payload.split(separator: " ", maxSplits: 1)
                    if let id = parts.first.flatMap({ UInt64($0) }) {
                        newest.max(id, ordering: .sequentiallyConsistent)
                        listener.heard = max(listener.heard, id)
                    }
                    if parts.count == 2, let lists = listsByTable[String(parts[1])] { changed.formUnion(lists) }
                    changed.formUnion(viewLists)
                }
                return changed
            } catch {
                warn("the connection listening for the database's changes was lost; connecting again: \(error)")
                listener.connection = nil
                listener.failures = 1
                return []
            }
        }
    }

    /// Closes the listening connection (no list is watched).
    func stopListening() {
        listener.withLock { $0.connection = nil }
    }

    // MARK: Mounting

    /// Has the watchers of `lists` told of the database's changes: by the change log when it is
    /// installed and readable, else by looking at the database's snapshot every
    /// ``DatabaseOptions/changePollInterval`` and rendering the watched windows again when it
    /// moved (``DatabaseChangeMonitor``). Decided once, when the lists are mounted: a log installed
    /// later is followed after a restart.
    static func watch(
        _ database: Database, info: PostgresConnectionInfo, lists: [(path: String, table: String, isView: Bool)], watchers: ListWatchers,
        warn: @escaping @Sendable (String) -> Void
    ) {
        let paths = Set(lists.map(\.path))
        let present = (try? database.read { reader in try reader.integer(PostgresChangeLog.presentSQL, []) }) == 1
        guard present else {
            DatabaseChangeMonitor.watch(database, paths: paths, watchers: watchers)
            return
        }
        let feed = PostgresChangeFeed(database: database, info: info, lists: lists, warn: warn)
        watchers.numberChanges(ofListsAt: paths, with: feed)
        watchers.follow(paths, { feed.nextChanges() }, stopped: { feed.stopListening() })
    }
}
