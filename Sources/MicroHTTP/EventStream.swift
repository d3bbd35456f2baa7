import ByteWriters

/// A Server-Sent Events stream to one client, fed by the app from any thread.
///
/// Return it as a response body (``Response/events(_:)``); the server sends it with
/// `Content-Type: text/event-stream`, `Cache-Control: no-cache` and chunked framing, and keeps the
/// connection open until the app closes the stream, the client goes away, or the server stops.
/// Between events the connection is suspended in libmicrohttpd: a stream holds no worker thread,
/// only its socket, its queue and the connection's memory.
///
/// ```swift
/// router.get("/clock") { request in
///     let stream = EventStream()
///     stream.onClose { reason in clocks.remove(id) }   // capture the stream weakly, or an id
///     clocks.add(stream)
///     return .events(stream)
/// }
/// // elsewhere, on any thread:
/// stream.send(ServerSentEvent(data: "12:00", id: "7"))
/// ```
///
/// ## The queue is bounded
///
/// Events wait in the stream's queue until the client reads them. A client that reads slower than
/// the app sends would make it grow; instead, when an event would take it past ``maxQueuedBytes``,
/// the stream drops the events not yet started, refuses the event and every later one
/// (``SendResult/overflowed``), and calls the ``onOverflow(_:)`` handler once. The client has then
/// missed events: the app sends one that tells it to start again (a `refresh`) with
/// ``replaceQueued(with:)``, which also ends the overflow. An event is always accepted into an
/// empty queue, whatever its size.
///
/// ## Ends
///
/// The ``onClose(_:)`` handlers run once, on any thread, when the stream is over for good: the
/// app closed it and the client received the rest, the client went away (noticed when a write
/// fails; the server's heartbeats, ``ServerConfiguration/eventStreamHeartbeat``, make sure one is
/// attempted), the server stopped, or the server refused it (``CloseReason/refused``). They are
/// released then, so a handler may capture the stream itself.
///
/// A client's `Last-Event-ID` header, sent when it reconnects, is in the request's headers
/// (`request.headers["Last-Event-ID"]`): what to replay from it is the app's decision.
public final class EventStream: Sendable {
    /// What became of an event handed to ``send(_:)``.
    public enum SendResult: Sendable, Equatable {
        /// Queued; the client will receive it unless it goes away first.
        case queued
        /// Not queued: the queue is full, or was and has not been replaced (see ``replaceQueued(with:)``).
        case overflowed
        /// Not queued: the stream is closed.
        case closed
    }

    /// Why a stream ended.
    public enum CloseReason: Sendable, Equatable {
        /// The app called ``close(with:)`` and the client received everything queued before it.
        case closed
        /// The connection ended first: the client went away, a write failed, or it read nothing for the connection timeout.
        case clientDisconnected
        /// The server stopped (``Server/stop(gracePeriod:)``).
        case serverStopping
        /// The stream never started: over a watcher cap (the client got 503), a HEAD request, or a response that was not sent.
        case refused
    }

    /// The most bytes the queue holds; past it the stream overflows (see the type's documentation).
    public let maxQueuedBytes: Int

    let state: Locked<State>

    /// Creates a stream; `maxQueuedBytes` (at least 1 KiB) bounds its queue.
    public init(maxQueuedBytes: Int = 256 * 1024) {
        self.maxQueuedBytes = max(1024, maxQueuedBytes)
        state = Locked(State())
    }

    /// Queues an event.
    @discardableResult
    public func send(_ event: ServerSentEvent) -> SendResult {
        enqueue(event.encoded, bypassingBound: false)
    }

    /// Queues a comment (lines starting with `:`, which clients ignore).
    @discardableResult
    public func sendComment(_ text: String) -> SendResult {
        enqueue(ServerSentEvent.comment(text), bypassingBound: false)
    }

    /// Queues bytes already framed as events (``ServerSentEvent/encoded``): the way to send one
    /// event to many streams with a single encoding, as ``EventStreamGroup/broadcast(_:)`` does.
    @discardableResult
    public func send(encoded bytes: [UInt8]) -> SendResult {
        enqueue(bytes, bypassingBound: false)
    }

    /// Drops the events not yet started and queues `event` in their place, whatever the bound,
    /// ending an overflow: the way to send a `refresh` to a client that fell behind.
    @discardableResult
    public func replaceQueued(with event: ServerSentEvent) -> SendResult {
        let bytes = event.encoded
        let (result, connection) = state.withLock { state -> (SendResult, OpaquePointer?) in
            guard state.isAcceptingEvents else { return (.closed, nil) }
            state.dropUnstarted()
            state.overflowed = false
            state.append(bytes)
            return (.queued, state.takeSuspendedConnection())
        }
        if let connection { Self.resume(connection) }
        return result
    }

    /// Ends the stream after the events queued so far (and `finalEvent`, if given) have been sent.
    ///
    /// Idempotent; later sends return ``SendResult/closed``.
    public func close(with finalEvent: ServerSentEvent? = nil) {
        end(.closed, finalEvent: finalEvent?.encoded)
    }

    /// Closes the stream at `deadline`, as ``close(with:)`` does: for a stream that may last only
    /// as long as what let its client in (a session, a token). The server's heartbeat thread looks
    /// at it, so the stream ends within ``ServerConfiguration/eventStreamHeartbeat`` seconds after
    /// `deadline`. A later call replaces the deadline.
    public func close(at deadline: ContinuousClock.Instant) {
        state.withLock { $0.closesAt = deadline }
    }

    /// Whether the stream no longer takes events (closed, or its connection ended).
    public var isClosed: Bool { state.withLock { !$0.isAcceptingEvents } }

    /// Whether the queue overflowed and has not been replaced since.
    public var isOverflowed: Bool { state.withLock { $0.overflowed } }

    /// Bytes queued and not yet handed to the connection.
    public var queuedBytes: Int { state.withLock { $0.queuedBytes } }

    /// Why the stream ended, once it has (after the ``onClose(_:)`` handlers were called).
    public var closeReason: CloseReason? { state.withLock { $0.endReason } }

    /// Adds a handler called once when the stream has ended; at once if it already has.
    public func onClose(_ handler: @escaping @Sendable (CloseReason) -> Void) {
        let ended = state.withLock { state -> CloseReason? in
            if let reason = state.endReason { return reason }
            state.closeHandlers.append(handler)
            return nil
        }
        if let ended { handler(ended) }
    }

    /// Sets the handler called when the queue overflows (once per overflow; see ``replaceQueued(with:)``).
    public func onOverflow(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.overflowHandler = handler }
    }

    /// Queues `bytes`: refused when closed or overflowed, and an overflow when they do not fit.
    func enqueue(_ bytes: [UInt8], bypassingBound: Bool) -> SendResult {
        let (result, connection) = enqueueDeferringResume(bytes, bypassingBound: bypassingBound)
        if let connection { Self.resume(connection) }
        return result
    }

    /// Queues `bytes` like ``enqueue(_:bypassingBound:)`` but returns the suspended connection the
    /// caller must resume (once), so that a broadcast can resume all of its streams together.
    func enqueueDeferringResume(_ bytes: [UInt8], bypassingBound: Bool = false) -> (SendResult, OpaquePointer?) {
        var overflowHandler: (@Sendable () -> Void)?
        let outcome = state.withLock { state -> (SendResult, OpaquePointer?) in
            guard state.isAcceptingEvents else { return (.closed, nil) }
            if !bypassingBound {
                if state.overflowed { return (.overflowed, nil) }
                if state.queuedBytes > 0 && state.queuedBytes + bytes.count > maxQueuedBytes {
                    state.dropUnstarted()
                    state.overflowed = true
                    overflowHandler = state.overflowHandler
                    return (.overflowed, nil)
                }
            }
            state.append(bytes)
            return (.queued, state.takeSuspendedConnection())
        }
        overflowHandler?()
        return outcome
    }

    /// Stops taking events; the queue (and `finalEvent`) is still sent, then the body ends.
    func end(_ reason: CloseReason, finalEvent: [UInt8]?) {
        let connection = state.withLock { state -> OpaquePointer? in
            guard state.isAcceptingEvents else { return nil }
            if let finalEvent { state.append(finalEvent) }
            state.phase = .closing(reason)
            return state.takeSuspendedConnection()
        }
        if let connection { Self.resume(connection) }
    }
}
