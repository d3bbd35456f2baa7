import ByteWriters

/// A thread that, while any of some lists is watched, asks every interval — or, without one, over
/// and over, the question itself waiting for an answer — which of them changed, and tells their
/// watchers (``ListWatchers/listDidChange(at:)``). It starts with the first watcher and ends when
/// none is left (``ListWatchers/isWatched(_:)``); made by ``ListWatchers/poll(_:every:_:)`` and
/// ``ListWatchers/follow(_:_:stopped:)``.
///
/// A thread of its own rather than a task: a task waits for a thread of the shared pool, which
/// code that blocks (a test suite, an app's own work) can hold for long.
final class ListPoller: Sendable {
    let paths: Set<String>
    /// The pause before each question; nil when the question waits itself.
    let interval: Duration?
    /// The paths whose data changed (a subset of ``paths``), or none.
    let check: @Sendable () -> Set<String>
    /// Called on the thread as it ends.
    let stopped: @Sendable () -> Void
    private weak let watchers: ListWatchers?
    private let running = Locked(false)

    init(
        paths: Set<String>, interval: Duration?, watchers: ListWatchers, check: @escaping @Sendable () -> Set<String>,
        stopped: @escaping @Sendable () -> Void = {}
    ) {
        self.paths = paths
        self.interval = interval
        self.watchers = watchers
        self.check = check
        self.stopped = stopped
    }

    /// Starts the thread unless it runs already.
    func start() {
        let starts = running.withLock { running in
            defer { running = true }
            return !running
        }
        guard starts else { return }
        if !Threads.detach({ self.run() }) { running.withLock { $0 = false } }
    }

    private func run() {
        while true {
            while let watchers, watchers.isWatched(paths) {
                if let interval { Threads.sleep(max(interval, .milliseconds(10))) }
                for path in check() where paths.contains(path) { watchers.listDidChange(at: path) }
            }
            // Stop, unless a watcher arrived since the last look: its start found the thread running.
            // `stopped` runs before the next thread can start, so the two never overlap.
            let stops = running.withLock { running in
                if let watchers, watchers.isWatched(paths) { return false }
                stopped()
                running = false
                return true
            }
            if stops { return }
        }
    }
}
