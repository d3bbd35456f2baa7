import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The connection's side of an ``EventStream``: its queue, and the suspend and resume that let a
/// stream wait for events without holding a worker thread.
///
/// ## Suspend and resume (libmicrohttpd 0.9.75)
///
/// When the content reader finds the queue empty it suspends the connection and returns 0;
/// returning 0 without suspending would make libmicrohttpd call it again at once, a busy loop.
/// A send that finds the connection suspended resumes it. Both decisions are taken under the
/// stream's lock, and the suspension itself happens under it too: a resume that reached
/// libmicrohttpd before the suspension it answers would be cancelled by it (`internal_suspend_connection_`
/// clears a pending resume and returns) and the connection would never wake. The resume call is
/// made after the lock is released: the connection stays suspended, and its memory valid, until it is.
/// Exactly one resume answers each suspension, as `MHD_resume_connection` on a connection that is
/// not suspended is undefined. libmicrohttpd never calls the reader, or frees the response, while
/// holding the mutex those two calls take, so the lock order (the stream's lock, then libmicrohttpd's) has no cycle.
extension EventStream {
    enum Phase {
        /// Taking events.
        case open
        /// No more events: the queue is being sent, then the body ends.
        case closing(CloseReason)
        /// Over; the close handlers have been called.
        case ended
    }

    struct State {
        /// Encoded events, the first not wholly written at ``head``.
        var events: [[UInt8]] = []
        var head = 0
        /// Bytes of `events[head]` already handed to the connection.
        var offset = 0
        /// Bytes queued and not yet handed to the connection.
        var queuedBytes = 0
        var phase = Phase.open
        var overflowed = false
        /// The connection serving the stream, from when its response is queued until libmicrohttpd frees it.
        var connection: OpaquePointer?
        var attached = false
        /// Whether the connection is suspended (and owed exactly one resume).
        var suspended = false
        /// Whether the reader returned the end of the body.
        var drained = false
        /// When the stream is to close (``EventStream/close(at:)``), looked at each heartbeat tick.
        var closesAt: ContinuousClock.Instant?
        /// Whether anything was queued since the last heartbeat tick.
        var queuedSinceHeartbeat = false
        var closeHandlers: [@Sendable (CloseReason) -> Void] = []
        var overflowHandler: (@Sendable () -> Void)?
        var endReason: CloseReason?

        var isAcceptingEvents: Bool {
            if case .open = phase { return true }
            return false
        }

        mutating func append(_ bytes: [UInt8]) {
            guard !bytes.isEmpty else { return }
            events.append(bytes)
            queuedBytes += bytes.count
            queuedSinceHeartbeat = true
        }

        /// Drops every event not yet started (the one being written stays, so the client never sees half an event).
        mutating func dropUnstarted() {
            let keep = offset > 0 && head < events.count ? 1 : 0
            events.removeSubrange((head + keep)...)
            queuedBytes = keep == 1 ? events[head].count - offset : 0
        }

        /// The suspended connection to resume, marked as resumed; nil when it is not suspended.
        mutating func takeSuspendedConnection() -> OpaquePointer? {
            guard suspended else { return nil }
            suspended = false
            return connection
        }

        /// Copies queued bytes into `buffer`; returns how many.
        mutating func copy(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
            var written = 0
            while written < capacity && head < events.count {
                let count = min(capacity - written, events[head].count - offset)
                events[head].withUnsafeBytes { source in
                    (buffer + written).copyMemory(from: source.baseAddress! + offset, byteCount: count)
                }
                written += count
                offset += count
                if offset == events[head].count {
                    head += 1
                    offset = 0
                }
            }
            queuedBytes -= written
            if head == events.count {
                events.removeAll(keepingCapacity: events.capacity <= 64)
                head = 0
            } else if head >= 64 && head * 2 >= events.count {
                events.removeSubrange(..<head)
                head = 0
            }
            return written
        }
    }

    static func resume(_ connection: OpaquePointer) {
        MHD_resume_connection(connection)
    }

    /// Binds the stream to the connection its response is queued on; false if it already was, or has ended.
    func attach(to connection: OpaquePointer) -> Bool {
        state.withLock { state in
            guard !state.attached, state.endReason == nil else { return false }
            state.attached = true
            state.connection = connection
            return true
        }
    }

    /// The content reader: queued bytes, the end of the body once closed and drained, or a suspension.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> ContentReadResult {
        state.withLock { state in
            let written = state.copy(into: buffer, capacity: capacity)
            if written > 0 { return .bytes(written) }
            guard case .open = state.phase else {
                state.drained = true
                return .endOfStream
            }
            guard let connection = state.connection else { return .error }
            // Under the lock: see the extension's documentation.
            MHD_suspend_connection(connection)
            state.suspended = true
            return .bytes(0)
        }
    }

    /// Whether the client has closed the connection while the stream waits suspended: the socket
    /// reads as ended (or reset) without taking a byte from it. libmicrohttpd does not watch a
    /// suspended connection, so without a look a closed one is noticed only by the next write.
    /// (A client that shuts down only its sending side, which no `EventSource` does, reads as closed too.)
    func clientHasClosed() -> Bool {
        state.withLock { state in
            // The connection stays valid until libmicrohttpd frees the response, which `finish` marks under this lock.
            guard state.suspended, let connection = state.connection else { return false }
            let socket = cmhd_connection_fd(connection)
            guard socket >= 0 else { return false }
            var byte: UInt8 = 0
            let received = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if received == 0 { return true }
            return received < 0 && (errno == ECONNRESET || errno == EPIPE || errno == ENOTCONN)
        }
    }

    /// Whether the stream's deadline (``EventStream/close(at:)``) has come while it is open.
    func isDue(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in state.isAcceptingEvents && state.closesAt.map { now >= $0 } == true }
    }

    /// A heartbeat tick: queues `comment` if nothing else was queued since the last tick; returns the connection to resume.
    func heartbeat(_ comment: [UInt8]) -> OpaquePointer? {
        state.withLock { state in
            guard state.isAcceptingEvents, state.connection != nil else { return nil }
            if state.queuedSinceHeartbeat {
                state.queuedSinceHeartbeat = false
                return nil
            }
            state.append(comment)
            state.queuedSinceHeartbeat = false
            return state.takeSuspendedConnection()
        }
    }

    /// The stream is over: libmicrohttpd freed its response (`refused` when it was never sent). Calls the close handlers.
    func finish(refused: Bool = false) {
        let (handlers, reason) = state.withLock { state -> ([@Sendable (CloseReason) -> Void], CloseReason?) in
            guard state.endReason == nil else { return ([], nil) }
            let reason: CloseReason
            switch state.phase {
            case _ where refused: reason = .refused
            case .closing(let closing) where state.drained || closing == .serverStopping: reason = closing
            default: reason = .clientDisconnected
            }
            state.phase = .ended
            state.endReason = reason
            state.connection = nil
            state.suspended = false
            state.events = []
            state.head = 0
            state.offset = 0
            state.queuedBytes = 0
            let handlers = state.closeHandlers
            state.closeHandlers = []
            state.overflowHandler = nil
            return (handlers, reason)
        }
        guard let reason else { return }
        for handler in handlers { handler(reason) }
    }
}
