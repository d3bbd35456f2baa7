import ByteWriters
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's open event streams: the watcher caps, the heartbeats (which also close the streams
/// whose deadline came), and the end of every stream when the server stops.
///
/// A stream is admitted when its response is queued and removed when libmicrohttpd frees that
/// response. The heartbeat thread starts with the first stream; every
/// ``ServerConfiguration/eventStreamHeartbeat`` seconds it queues a comment on each stream that
/// was sent nothing since the last tick, so that a write is attempted and a client that went away
/// is noticed (a suspended connection does not notice it otherwise, and does not time out).
final class EventStreamRegistry: Sendable {
    /// Why a stream was not admitted.
    enum Refusal: Error {
        case total(limit: Int)
        case perAddress(limit: Int)
        case stopping
    }

    let limit: Int
    let perAddressLimit: Int
    let heartbeatInterval: Duration
    private let state = Locked(State())
    private let exiting = Atomic<Bool>(false)

    private struct State {
        var streams: [ObjectIdentifier: (stream: EventStream, address: String)] = [:]
        var perAddress: [String: Int] = [:]
        var stopping = false
        /// When every stream was last looked at for a closed client (at the total cap).
        var lastSweepOfAll: ContinuousClock.Instant?
        var heartbeatsStarted = false
        var thread: pthread_t?
    }

    init(limit: Int, perAddressLimit: Int, heartbeatInterval: Duration) {
        self.limit = limit
        self.perAddressLimit = perAddressLimit
        self.heartbeatInterval = heartbeatInterval
    }

    /// Streams open now.
    var count: Int { state.withLock { $0.streams.count } }

    /// Counts `stream` in, or says which cap it would exceed. Over a cap, the streams it counts
    /// whose clients have closed their connections are let go first: a browser that goes from page
    /// to page leaves a stream behind each time, which a suspended connection would otherwise hold
    /// until its next heartbeat write, and a quick reader could fill its address's allowance with them.
    func admit(_ stream: EventStream, address: String) throws(Refusal) {
        do {
            try count(stream, address: address)
        } catch {
            switch error {
            case .stopping: throw error
            case .perAddress: guard release(closedStreamsFrom: address) > 0 else { throw error }
            case .total: guard release(closedStreamsFrom: nil) > 0 else { throw error }
            }
            try count(stream, address: address)
        }
    }

    /// Lets go of the streams from `address` (from any address when nil) whose clients have
    /// closed their connections: counted out now, and ended (libmicrohttpd then frees them).
    /// Returns how many.
    /// At the total cap every stream is looked at, at most once a second: a syscall each, which
    /// a flood of refused requests must not multiply.
    private func release(closedStreamsFrom address: String?) -> Int {
        let candidates = state.withLock { state -> [(stream: EventStream, address: String)] in
            guard let address else {
                let now = ContinuousClock.now
                if let last = state.lastSweepOfAll, now - last < .seconds(1) { return [] }
                state.lastSweepOfAll = now
                return Array(state.streams.values)
            }
            return state.streams.values.filter { $0.address == address }
        }
        var released = 0
        for (stream, streamAddress) in candidates where stream.clientHasClosed() {
            remove(stream, address: streamAddress)
            stream.end(.clientDisconnected, finalEvent: nil)
            released += 1
        }
        return released
    }

    private func count(_ stream: EventStream, address: String) throws(Refusal) {
        let startThread = try state.withLock { (state: inout State) throws(Refusal) -> Bool in
            if state.stopping { throw .stopping }
            if state.streams.count >= limit { throw .total(limit: limit) }
            let fromAddress = state.perAddress[address, default: 0]
            if fromAddress >= perAddressLimit { throw .perAddress(limit: perAddressLimit) }
            state.streams[ObjectIdentifier(stream)] = (stream, address)
            state.perAddress[address] = fromAddress + 1
            if state.heartbeatsStarted { return false }
            state.heartbeatsStarted = true
            return true
        }
        if startThread { startHeartbeats() }
    }

    /// Counts `stream` out (its response was freed).
    func remove(_ stream: EventStream, address: String) {
        state.withLock { state in
            guard state.streams.removeValue(forKey: ObjectIdentifier(stream)) != nil else { return }
            let remaining = state.perAddress[address, default: 1] - 1
            state.perAddress[address] = remaining > 0 ? remaining : nil
        }
    }

    /// Refuses new streams and ends every open one: each sends what it has queued, then its body ends.
    /// A suspended stream is resumed, so that none is left suspended when the daemon stops.
    func endAll() {
        let streams = state.withLock { state in
            state.stopping = true
            return state.streams.values.map(\.stream)
        }
        for stream in streams { stream.end(.serverStopping, finalEvent: nil) }
    }

    /// Stops the heartbeat thread (after `MHD_stop_daemon`).
    func stop() {
        exiting.store(true, ordering: .releasing)
        let thread = state.withLock { state in
            state.stopping = true
            defer { state.thread = nil }
            return state.thread
        }
        if let thread { pthread_join(thread, nil) }
    }

    /// One tick: the streams whose deadline has come closed (``EventStream/close(at:)``), a comment
    /// on every quiet one, then the resumes, together (in libmicrohttpd 0.9.75 each wake-up of a
    /// worker walks its whole list of suspended connections).
    func beat() {
        let streams = state.withLock { $0.streams.values.map(\.stream) }
        let comment = ServerSentEvent.comment("")
        let now = ContinuousClock.now
        var resumes: [OpaquePointer] = []
        for stream in streams {
            if stream.isDue(at: now) {
                stream.close()
                continue
            }
            if let connection = stream.heartbeat(comment) { resumes.append(connection) }
        }
        for connection in resumes { EventStream.resume(connection) }
    }

    private func startHeartbeats() {
        // Without it streams still work; only vanished clients are noticed later (by the connection timeout, once a send fails).
        guard let thread = try? Threads.start({ self.runHeartbeats() }) else { return }
        let kept = state.withLock { state in
            guard !state.stopping else { return false }
            state.thread = thread
            return true
        }
        // The server is stopping already: the thread sees `exiting` at its first check and ends alone.
        if !kept { pthread_detach(thread) }
    }

    private func runHeartbeats() {
        var next = ContinuousClock.now + heartbeatInterval
        while !exiting.load(ordering: .acquiring) {
            // Short sleeps, so that a stopping server does not wait for a whole interval.
            usleep(50_000)
            if ContinuousClock.now >= next {
                beat()
                next = ContinuousClock.now + heartbeatInterval
            }
        }
    }
}
