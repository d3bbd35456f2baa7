import ByteWriters
import MicroHTTP
import TableKit

/// One window of a list (its path, its query, a patch format) and everyone watching it: the
/// version they have, one render and one difference per change for all of them, and a bounded
/// log of recent batches for clients that reconnect with `Last-Event-ID`.
final class WatchedWindow: Sendable {
    /// A batch as sent: its sequence and its encoded event.
    struct LoggedBatch: Sendable {
        var sequence: UInt64
        var bytes: [UInt8]
    }

    private struct State: Sendable {
        var version: WindowVersion
        var log: [LoggedBatch] = []
        var logBytes = 0
        /// A client whose last event is this sequence or later can be replayed from the log.
        var coversFrom: UInt64
        /// The sequence of the last batch, or `coversFrom` before the first.
        var latest: UInt64
        var watchers = 0
        /// When the last watcher left; nil while anyone watches.
        var idleSince: ContinuousClock.Instant?
        /// When the table header's live part (facets) was last sent, and whether a change to it
        /// is held for a later render (``liveHeaderInterval``).
        var liveHeaderSent: ContinuousClock.Instant?
        var liveHeaderHeld = false
    }

    /// The least time between two patches of the table header's live part (a facet's counts):
    /// counting is a query per facet, and a list written to many times a second would have its
    /// facets replaced under the reader's pointer. Rows are patched as they change.
    static let liveHeaderInterval = Duration.seconds(2)

    /// The most batches, and bytes of batches, kept for replay.
    static let logLimit = (batches: 64, bytes: 1024 * 1024)

    let route: ListRoute
    let request: Request
    let format: WatchFormat
    let responder: ListResponder
    private let group = EventStreamGroup()
    private let state: Locked<State>
    /// The sequence of a batch made by a held render (``liveHeaderInterval``), not by a change.
    private let nextSequence: @Sendable () -> UInt64

    /// Renders the window's first version; throws as the list's page would. `nextSequence` numbers
    /// a batch the window sends by itself: a held change to its table header's live part.
    init(
        route: ListRoute, request: Request, format: WatchFormat, responder: ListResponder, sequence: UInt64,
        nextSequence: @escaping @Sendable () -> UInt64
    ) throws {
        self.route = route
        self.request = request
        self.format = format
        self.responder = responder
        self.nextSequence = nextSequence
        let version = try responder.guarded(request, route: route) {
            try WindowVersion.render(route, request: request, format: format, responder: responder)
        }
        state = Locked(State(version: version.withoutRows, coversFrom: sequence, latest: sequence))
    }

    /// Adds a watcher: first what it missed since `lastEventID` (the batches, or a refresh when
    /// the log no longer reaches back that far), or, for a new watcher, an empty batch that gives it
    /// the current sequence as its last event id; then every batch to come.
    ///
    /// `upToDate`: a store's change log (``ListChangeLog``) says the list has not changed since
    /// `lastEventID`, which this window did not give (another replica did): the client has the
    /// rows as they are, and gets an empty batch rather than a refresh.
    func attach(_ stream: EventStream, lastEventID: String?, upToDate: Bool = false, currentSequence: @escaping @Sendable () -> UInt64) {
        let format = format
        state.withLock { state in
            if let lastEventID {
                // Any id given out so far from the window's first on: later ids were given to other windows.
                if let seen = UInt64(lastEventID), seen >= state.coversFrom, seen <= max(state.latest, currentSequence()) {
                    for batch in state.log where batch.sequence > seen { stream.send(encoded: batch.bytes) }
                } else if upToDate, let seen = UInt64(lastEventID) {
                    stream.send(Self.greeting(format: format, sequence: max(seen, state.latest)))
                } else {
                    stream.send(Self.refreshEvent(format: format, sequence: state.latest))
                }
            } else {
                stream.send(Self.greeting(format: format, sequence: state.latest))
            }
            group.add(stream)
            state.watchers += 1
            state.idleSince = nil
        }
        stream.onOverflow { [weak stream] in
            stream?.replaceQueued(with: Self.refreshEvent(format: format, sequence: currentSequence()))
        }
        stream.onClose { [weak self] _ in
            self?.state.withLock { state in
                state.watchers -= 1
                if state.watchers == 0 { state.idleSince = .now }
            }
        }
    }

    /// Whether no one has watched the window for `retention`.
    func isIdle(for retention: Duration, at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in state.idleSince.map { now - $0 >= retention } ?? false }
    }

    /// When its last watcher left, or nil while it is watched.
    var idleSince: ContinuousClock.Instant? { state.withLock { $0.idleSince } }

    /// Watchers now.
    var watchers: Int { state.withLock { $0.watchers } }

    /// Renders the window again and sends its watchers what changed, as one batch with the next
    /// sequence. On an error (a controller's, a cell's, or two rows with one identity) nothing is
    /// sent: the error is logged, every watcher's stream is closed, and the result is false.
    ///
    /// With `changes` the app stated (``ListChanges``): a change that only reloads rows the window
    /// does not hold leaves it as it is, unrendered; rows stated reloaded are sent again even when
    /// their bytes did not change; and what the render contradicts in the statement is logged.
    func refresh(changes: ListChanges? = nil, nextSequence: () -> UInt64) -> Bool {
        state.withLock { state in
            if let changes, changes.onlyReloadsRows, !changes.reloadedRows.contains(where: state.version.snapshot.containsItem) {
                return true
            }
            do {
                let new = try WindowVersion.render(route, request: request, format: format, responder: responder)
                var patch = try WindowPatch.between(state.version, new, reloading: changes?.reloadedRows ?? [])
                if let contradictions = changes?.contradictions(old: state.version, new: new, patch: patch), !contradictions.isEmpty {
                    responder.app.logger.error(
                        "the changes stated for a watched list contradict it; its watchers get the list as it is",
                        metadata: [
                            "list": "\(route.path)", "query": "\(request.rawQuery ?? "")",
                            "contradictions": "\(contradictions.joined(separator: "; "))",
                        ])
                }
                let sentLiveHeader = state.version.liveHeader
                state.version = new.withoutRows
                holdLiveHeaderIfTooSoon(&patch, &state, sent: sentLiveHeader)
                guard !patch.isEmpty else { return true }
                let sequence = nextSequence()
                let data =
                    format == .json
                    ? JSONPatchBatch.data(patch, version: new, sequence: sequence) : TurboStreamBatch.data(patch, version: new)
                let event = ServerSentEvent(data: data, id: String(sequence))
                append(LoggedBatch(sequence: sequence, bytes: event.encoded), to: &state)
                group.broadcast(event)
                return true
            } catch {
                responder.app.logger.error(
                    "a watched list failed to render; its watchers' streams are closed",
                    metadata: [
                        "list": "\(route.path)", "query": "\(request.rawQuery ?? "")", "error": "\(String(describing: error))",
                        "error_type": "\(String(reflecting: type(of: error)))",
                    ])
                group.closeAll()
                return false
            }
        }
    }

    /// Takes the live header's replacement out of `patch` when one was sent less than
    /// ``liveHeaderInterval`` ago: the kept version keeps the header the watchers have, so the
    /// difference stays, and a render when the interval is over sends it (the latest counts).
    private func holdLiveHeaderIfTooSoon(_ patch: inout WindowPatch, _ state: inout State, sent sentLiveHeader: [UInt8]) {
        guard patch.operations.contains(.liveHeader) else { return }
        let now = ContinuousClock.now
        guard let sent = state.liveHeaderSent, now - sent < Self.liveHeaderInterval else {
            state.liveHeaderSent = now
            return
        }
        patch.operations.removeAll { $0 == .liveHeader }
        state.version.liveHeader = sentLiveHeader
        guard !state.liveHeaderHeld else { return }
        state.liveHeaderHeld = true
        let wait = sent + Self.liveHeaderInterval - now
        let started = Threads.detach { [self] in
            Threads.sleep(wait)
            self.state.withLock { $0.liveHeaderHeld = false }
            _ = refresh(nextSequence: nextSequence)
        }
        if !started { state.liveHeaderHeld = false }
    }

    /// Closes every watcher's stream.
    func closeAll() {
        group.closeAll()
    }

    private func append(_ batch: LoggedBatch, to state: inout State) {
        // A sequence given twice (a change log's position that did not move between two renders):
        // a client at it cannot be told which version it has, so it is no longer replayed from.
        if batch.sequence <= state.latest { state.coversFrom = batch.sequence + 1 }
        state.log.append(batch)
        state.logBytes += batch.bytes.count
        state.latest = batch.sequence
        while state.log.count > Self.logLimit.batches || (state.logBytes > Self.logLimit.bytes && state.log.count > 1) {
            let dropped = state.log.removeFirst()
            state.logBytes -= dropped.bytes.count
            state.coversFrom = dropped.sequence
        }
    }

    /// An empty batch with the current sequence as its id, so that a new watcher knows where it
    /// stands (an event without data would set the id but reach no script): an HTML comment for
    /// Turbo, which finds no `<turbo-stream>` in it, and no operations in JSON.
    static func greeting(format: WatchFormat, sequence: UInt64) -> ServerSentEvent {
        let data =
            format == .json
            ? JSONPatchBatch.data(WindowPatch(), version: WindowVersion(), sequence: sequence) : "<!-- watching from \(sequence) -->"
        return ServerSentEvent(data: data, id: String(sequence))
    }

    /// The event that has a client load the window again.
    static func refreshEvent(format: WatchFormat, sequence: UInt64) -> ServerSentEvent {
        let data = format == .json ? JSONPatchBatch.refresh(sequence: sequence) : TurboStreamBatch.refresh
        return ServerSentEvent(data: data, id: String(sequence))
    }
}
