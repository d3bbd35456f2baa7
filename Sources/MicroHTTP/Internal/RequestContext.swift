import Synchronization

/// The state of one request between libmicrohttpd's callbacks, reached through `*con_cls`.
///
/// Created by the URI-log callback (which sees the undecoded request target), retained in
/// `*con_cls`, released by the request-completed callback. libmicrohttpd serves one
/// connection on one worker thread, so its fields are only touched by that thread.
final class RequestContext {
    enum Phase {
        /// The request line arrived; the access handler has not run yet.
        case started
        /// The headers have been seen; body chunks may follow.
        case receivingBody
        /// A response has been queued.
        case answered
    }

    let id = RequestID.next()
    let started = ContinuousClock.now
    /// The request target exactly as sent (`/path?query`), undecoded.
    let rawTarget: [UInt8]
    var phase = Phase.started
    var method = HTTPMethod(rawValue: "-")
    var path: String
    var body: [UInt8] = []
    var bodyTooLarge = false
    var status: HTTPStatus?
    var route: String?
    /// Body bytes of a buffered response (set when queued).
    var bufferedBytes = 0
    /// Bytes produced by a streamed response, shared with its ``StreamBox``.
    var streamedBytes: ByteCounter?

    init(rawTarget: [UInt8]) {
        self.rawTarget = rawTarget
        let pathEnd = rawTarget.firstIndex(of: UInt8(ascii: "?")) ?? rawTarget.endIndex
        path = String(decoding: rawTarget[..<pathEnd], as: UTF8.self)
    }

    /// The raw query (after the first `?`), or nil when the target has none.
    var rawQuery: ArraySlice<UInt8>? {
        rawTarget.firstIndex(of: UInt8(ascii: "?")).map { rawTarget[($0 + 1)...] }
    }

    var bytesSent: Int {
        streamedBytes?.value ?? bufferedBytes
    }
}

/// A byte count shared between a streamed response and its request's context.
final class ByteCounter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func add(_ bytes: Int) {
        count.add(bytes, ordering: .relaxed)
    }
}
