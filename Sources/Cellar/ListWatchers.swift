import ByteWriters
import MicroHTTP
import Synchronization
import TableKit

/// Everyone watching a list: the windows watched (one per list, query and patch format, shared by
/// all its watchers), the change sequence that numbers their batches, and the way changes come in.
///
/// Any list can be watched: its URL asked for with `Accept: text/event-stream` answers with
/// Server-Sent Events, each a batch of patches for the window its query names (README.md, "Live
/// lists"). What changed is worked out by rendering the window again and comparing it, row by
/// row, with the version the watchers have. An app says when a list's data changed, as a
/// `UITableView` is told to reload:
///
/// ```swift
/// sensors.update(reading)
/// app.listDidChange(at: "/sensors")   // or, from any thread: watchers.listDidChange(at: "/sensors")
/// ```
///
/// Lists over a store that changes by itself (a database another process writes) are polled
/// while they are watched (``poll(_:every:_:)``), or followed when the store says what changed
/// (``follow(_:_:stopped:)``). A store that numbers its changes itself numbers their batches too
/// (``numberChanges(ofListsAt:with:)``), so that event ids hold across replicas.
public final class ListWatchers: Sendable {
    private struct State: Sendable {
        var windows: [String: WatchedWindow] = [:]
        /// For each list with a window, the sequence of its last change (``listDidChange(at:)``)
        /// since it has had one: a client whose last event is as recent has the list as it is.
        var lastChange: [String: UInt64] = [:]
        var monitors: [(paths: Set<String>, start: @Sendable () -> Void)] = []
        var logs: [(paths: Set<String>, log: any ListChangeLog)] = []
    }

    /// How long a window no one watches is kept (and kept up to date), so that a client that
    /// closed its stream for a while (a hidden tab) is replayed what it missed when it returns.
    public let idleRetention: Duration
    /// How many windows no one watches are kept at most: beyond it, those idle the longest go
    /// first. Each window is rendered again on every change of its list and keeps a log of its
    /// recent batches, so a client opening and closing streams with ever new queries must not
    /// make them pile up.
    public let idleWindowLimit: Int
    private let state = Locked(State())
    private let sequence = Atomic<UInt64>(0)

    public init(idleRetention: Duration = .seconds(60), idleWindowLimit: Int = 256) {
        self.idleRetention = idleRetention
        self.idleWindowLimit = max(0, idleWindowLimit)
    }

    /// Tells every watcher of the list at `path` what changed since it was last told: each window
    /// of the list is rendered again, compared with the version its watchers have, and the
    /// difference sent to all of them as one batch. Call it from any thread after the data behind
    /// the list changed; it returns once the batches are queued.
    public func listDidChange(at path: String) {
        didChange(at: path, changes: nil)
    }

    /// Tells every watcher of the list at `path` what changed, as the app states it: rows
    /// inserted, deleted, moved and reloaded, by identity (``ListChanges``). Each window is still
    /// rendered again and compared, but a change that only reloads rows skips the windows that hold
    /// none of them, and reloaded rows are sent even when their bytes did not change.
    ///
    /// ```swift
    /// app.watchers.listDidChange(at: "/sensors", try ListChanges(reloaded: ["humidity"]))
    /// ```
    public func listDidChange(at path: String, _ changes: ListChanges) {
        guard !changes.isEmpty else { return }
        didChange(at: path, changes: changes)
    }

    /// Tells the watchers as ``listDidChange(at:)`` does, and returns the change's sequence: every
    /// batch that shows the change has it or a later one as its event id (editing mode's 204, so
    /// that the page that asked knows which batch brings its change).
    func numberedChange(at path: String) -> UInt64 {
        didChange(at: path, changes: nil)
    }

    @discardableResult
    private func didChange(at path: String, changes: ListChanges?) -> UInt64 {
        let (windows, log) = state.withLock { state in
            purgeIdle(&state)
            let windows = state.windows.isEmpty ? [:] : state.windows.filter { $0.value.route.path == path }
            return (windows, Self.log(for: path, in: state))
        }
        guard !windows.isEmpty else { return log?.currentPosition() ?? currentSequence }
        // Read before the renders: each shows at least every change up to it.
        let position = log?.currentPosition()
        let next = { position ?? self.sequence.add(1, ordering: .sequentiallyConsistent).newValue }
        let numbered = next()
        state.withLock { $0.lastChange[path] = numbered }
        for (key, window) in windows where !window.refresh(changes: changes, nextSequence: next) {
            state.withLock { state in
                if state.windows[key] === window { state.windows[key] = nil }
            }
        }
        return numbered
    }

    /// Whether any window of the lists at `paths` is watched, or was within ``idleRetention``.
    public func isWatched(_ paths: Set<String>) -> Bool {
        state.withLock { state in
            purgeIdle(&state)
            return state.windows.values.contains { paths.contains($0.route.path) }
        }
    }

    /// Calls `start` (on the thread that opened the window) each time a window of one of the lists
    /// at `paths` starts to be watched: a monitor of the store behind them starts polling then, if
    /// it is not already, and stops once ``isWatched(_:)`` no longer holds.
    public func onWatchStarts(forListsAt paths: Set<String>, _ start: @escaping @Sendable () -> Void) {
        state.withLock { $0.monitors.append((paths, start)) }
    }

    /// Asks `check` every `interval`, on a thread of its own, whether the data behind the lists at
    /// `paths` changed, while any of them is watched (or kept within ``idleRetention``); when it
    /// says so, their watchers are told (``listDidChange(at:)``). For a store that changes by
    /// itself — a file another process writes, a sensor:
    ///
    /// ```swift
    /// app.watchers.poll(["/sensors"], every: .seconds(1)) { sensors.read() }   // true when a reading moved
    /// ```
    public func poll(_ paths: Set<String>, every interval: Duration, _ check: @escaping @Sendable () -> Bool) {
        let poller = ListPoller(paths: paths, interval: interval, watchers: self, check: { check() ? paths : [] })
        onWatchStarts(forListsAt: paths) { poller.start() }
    }

    /// Calls `wait` over and over, on a thread of its own, while any of the lists at `paths` is
    /// watched (or kept within ``idleRetention``); `wait` blocks until the data behind some of them
    /// changed, or for a second or so at most, and returns their paths (none: nothing changed),
    /// whose watchers are then told. `stopped` is called on that thread when it ends because no
    /// list is watched. For a store that says what changed — PostgreSQL's `LISTEN`:
    ///
    /// ```swift
    /// app.watchers.follow(["/orders", "/customers"]) { feed.nextChanges(waitingAtMost: .seconds(1)) }
    /// ```
    public func follow(_ paths: Set<String>, _ wait: @escaping @Sendable () -> Set<String>, stopped: @escaping @Sendable () -> Void = {}) {
        let poller = ListPoller(paths: paths, interval: nil, watchers: self, check: wait, stopped: stopped)
        onWatchStarts(forListsAt: paths) { poller.start() }
    }

    /// Numbers the changes of the lists at `paths` by `log`'s positions, not the process's own
    /// sequence: their windows start at the position read before their first render, each batch
    /// is numbered by the position read before the render that made it, and a client that comes
    /// back with an event id this process did not give (another replica did, or the window has
    /// gone) is told to refresh only when `log` says the list may have changed since. Call it
    /// before the lists are watched.
    public func numberChanges(ofListsAt paths: Set<String>, with log: some ListChangeLog) {
        state.withLock { $0.logs.append((paths, log)) }
    }

    private static func log(for path: String, in state: State) -> (any ListChangeLog)? {
        state.logs.first { $0.paths.contains(path) }?.log
    }

    /// Streams open on all windows now.
    public var watcherCount: Int {
        let windows = state.withLock { Array($0.windows.values) }
        return windows.reduce(0) { $0 + $1.watchers }
    }

    /// Windows watched now (or kept within ``idleRetention``).
    public var windowCount: Int { state.withLock { $0.windows.count } }

    /// The last sequence given to a batch.
    var currentSequence: UInt64 { sequence.load(ordering: .sequentiallyConsistent) }

    /// Answers a request to watch a list with an event stream of its window's batches. The last
    /// event the client has is its `Last-Event-ID` header, or the `_last-event-id` query item (a
    /// script's `EventSource` cannot send headers; names starting with `_` are not filters).
    func watch(_ request: Request, route: ListRoute, format: WatchFormat, responder: ListResponder) throws -> Response {
        // Each set of rights on the list its own window: a render carries only its watchers' controls.
        let control = responder.app.accessControl
        let key = Self.key(route: route, format: format, query: request.query, allowed: control?.allowedActions(request, on: route.path))
        var (window, lastChange, log) = state.withLock { ($0.windows[key], $0.lastChange[route.path], Self.log(for: route.path, in: $0)) }
        let lastEventID = request.headers["Last-Event-ID"] ?? request.query["_last-event-id"]
        // With a change log, read before the render: the window shows at least every change up to it.
        let position = log?.currentPosition()
        let next = { log?.currentPosition() ?? self.sequence.add(1, ordering: .sequentiallyConsistent).newValue }
        if window == nil {
            // A new window of a list watched all along starts at the list's last change: a client
            // that has seen it (one that loaded more rows, or returns to a hidden tab) has the rows
            // as they are, and needs no refresh. For a list not watched until now, changes may
            // have gone unnoticed: it starts at the latest sequence.
            let logged = log
            let made = try WatchedWindow(
                route: route, request: request, format: format, responder: responder, sequence: position ?? lastChange ?? currentSequence
            ) { [weak self] in logged?.currentPosition() ?? self?.sequence.add(1, ordering: .sequentiallyConsistent).newValue ?? 0 }
            let (kept, monitors, changedMeanwhile) = state.withLock { state -> (WatchedWindow, [@Sendable () -> Void], Bool) in
                purgeIdle(&state)
                if let existing = state.windows[key] { return (existing, [], false) }
                state.windows[key] = made
                let changed = state.lastChange[route.path] != lastChange
                return (made, state.monitors.filter { $0.paths.contains(route.path) }.map(\.start), changed)
            }
            for start in monitors { start() }
            // The list changed while the window was rendered, before it could be told: render it again.
            if changedMeanwhile && !made.refresh(nextSequence: next) {
                state.withLock { state in
                    if state.windows[key] === made { state.windows[key] = nil }
                }
                throw HTTPError(.internalServerError, "The list at \(route.path) failed to render.")
            }
            window = kept
        }
        // An id this window did not give may still be current: the log tells, for any replica's ids.
        let upToDate = log.map { log in lastEventID.flatMap { UInt64($0) }.map { !log.hasChanged(listAt: route.path, since: $0) } ?? false }
        let stream = EventStream()
        // A session's (or a token's) stream ends with it: the client's reconnection is signed out.
        if let control, let expiry = control.credentialsExpiry(of: request) {
            stream.close(at: .now + .seconds(max(0, expiry - control.now())))
        }
        if let position {
            window?.attach(stream, lastEventID: lastEventID, upToDate: upToDate ?? false) { position }
        } else {
            window?.attach(stream, lastEventID: lastEventID) { [weak self] in self?.currentSequence ?? 0 }
        }
        var response = Response.events(stream)
        response.headers.add(name: "Vary", value: "Accept")
        return response
    }

    /// Closes every stream (the server's stop does it too; this is for tests and apps that stop watching).
    public func closeAll() {
        let windows = state.withLock { state in
            defer {
                state.windows = [:]
                state.lastChange = [:]
            }
            return Array(state.windows.values)
        }
        for window in windows { window.closeAll() }
    }

    private func purgeIdle(_ state: inout State) {
        // No window: nothing to purge, and no list's last change to keep (every write of a list no one watches).
        guard !state.windows.isEmpty else {
            if !state.lastChange.isEmpty { state.lastChange = [:] }
            return
        }
        let now = ContinuousClock.now
        state.windows = state.windows.filter { !$0.value.isIdle(for: idleRetention, at: now) }
        let idle = state.windows.compactMap { key, window in window.idleSince.map { (key: key, since: $0) } }
        if idle.count > idleWindowLimit {
            for window in idle.sorted(by: { $0.since < $1.since }).prefix(idle.count - idleWindowLimit) {
                state.windows[window.key] = nil
            }
        }
        let watched = Set(state.windows.values.map(\.route.path))
        state.lastChange = state.lastChange.filter { watched.contains($0.key) }
    }

    /// One window per list, format, query and, with sign-in, set of actions allowed on the list
    /// (``AccessControl/allowedActions(_:on:)``); the query in a canonical order (items by name, the
    /// order of items of one name kept, as it matters for `sort`), without the items that do not
    /// change the rows (`fragment`, and names starting with `_` or `utm_`).
    static func key(route: ListRoute, format: WatchFormat, query: QueryItems, allowed: String? = nil) -> String {
        let items = query.filter { item in item.name != "fragment" && !item.name.hasPrefix("_") && !item.name.hasPrefix("utm_") }
        let ordered = items.enumerated().sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }.map(\.element)
        let window = format.rawValue + " " + route.path + "?" + QueryItems(ordered.map { ($0.name, $0.value) }).percentEncoded
        return allowed.map { window + " allowed=" + $0 } ?? window
    }
}
