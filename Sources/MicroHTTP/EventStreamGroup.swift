import ByteWriters

/// A set of event streams that receive the same events: the watchers of one list, say.
///
/// ``broadcast(_:)`` encodes an event once, queues it on every stream, and only then resumes the
/// suspended connections, together (libmicrohttpd 0.9.75 walks a worker's whole list of suspended
/// connections each time a resume wakes it). Streams that have ended leave the group by themselves.
public final class EventStreamGroup: Sendable {
    /// What a broadcast did.
    public struct BroadcastResult: Sendable, Equatable {
        /// Streams that queued the event.
        public var queued = 0
        /// Streams whose queue is full (each was told through its ``EventStream/onOverflow(_:)`` handler).
        public var overflowed = 0

        /// Creates a result.
        public init(queued: Int = 0, overflowed: Int = 0) {
            self.queued = queued
            self.overflowed = overflowed
        }
    }

    private let streams = Locked<[ObjectIdentifier: EventStream]>([:])

    /// Creates an empty group.
    public init() {}

    /// Adds `stream`; it leaves the group when it ends.
    public func add(_ stream: EventStream) {
        let key = ObjectIdentifier(stream)
        streams.withLock { $0[key] = stream }
        stream.onClose { [weak self] _ in
            self?.streams.withLock { _ = $0.removeValue(forKey: key) }
        }
    }

    /// Removes `stream` without closing it.
    public func remove(_ stream: EventStream) {
        streams.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// Streams in the group.
    public var count: Int { streams.withLock { $0.count } }

    /// Queues `event` on every stream of the group.
    @discardableResult
    public func broadcast(_ event: ServerSentEvent) -> BroadcastResult {
        let bytes = event.encoded
        let members = streams.withLock { Array($0.values) }
        var result = BroadcastResult()
        var resumes: [OpaquePointer] = []
        for stream in members {
            let (sent, connection) = stream.enqueueDeferringResume(bytes)
            switch sent {
            case .queued: result.queued += 1
            case .overflowed: result.overflowed += 1
            case .closed: break
            }
            if let connection { resumes.append(connection) }
        }
        for connection in resumes { EventStream.resume(connection) }
        return result
    }

    /// Closes every stream of the group (each sends what it has queued, then `finalEvent` if given).
    public func closeAll(with finalEvent: ServerSentEvent? = nil) {
        let members = streams.withLock { Array($0.values) }
        for stream in members { stream.close(with: finalEvent) }
    }
}
