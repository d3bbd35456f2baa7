import ByteWriters
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
    /// Where the path of ``rawTarget`` ends: the index of its first `?`, or its end.
    let pathEnd: Int
    /// Whether the path of ``rawTarget`` holds a `%`: without one, ``path`` is the raw path as it is.
    let pathHasEscapes: Bool
    var phase = Phase.started
    var method = HTTPMethod(rawValue: "-")
    var path: String
    var body: [UInt8] = []
    var bodyTooLarge = false
    /// The number of header fields, counted when the head is checked.
    var headerFieldCount = 0
    var status: HTTPStatus?
    /// The route pattern the responder named (``HTTPResponder/respond(to:matchedRoute:)``).
    var route: String?
    /// Body bytes of a buffered response (set when queued).
    var bufferedBytes = 0
    /// Bytes of a buffered response counted in the server's ``BufferedResponseBytes`` until the
    /// request is finished.
    var countedBytes = 0
    /// Bytes produced by a streamed response, shared with its ``StreamBox``.
    var streamedBytes: ByteCounter?
    /// The connection's ``ConnectionWatch`` once the head was counted as complete (not retained: the connection
    /// outlives its requests, and libmicrohttpd reports a request completed before it reports the connection closed).
    var watch: UnsafeMutableRawPointer?

    init(rawTarget: [UInt8]) {
        self.rawTarget = rawTarget
        pathEnd = rawTarget.firstIndex(of: UInt8(ascii: "?")) ?? rawTarget.endIndex
        pathHasEscapes = rawTarget[..<pathEnd].contains(UInt8(ascii: "%"))
        path = pathHasEscapes ? PercentEncoding.decoded(rawTarget[..<pathEnd]) : String(decoding: rawTarget[..<pathEnd], as: UTF8.self)
    }

    /// Percent-decodes a raw path the way libmicrohttpd does (malformed escapes stay as they are, `+` is not a space),
    /// except that `%00` becomes a NUL character instead of cutting the path short, so handlers can refuse it.
    static func decodePath(_ raw: ArraySlice<UInt8>) -> String {
        guard raw.contains(UInt8(ascii: "%")) else { return String(decoding: raw, as: UTF8.self) }
        return PercentEncoding.decoded(raw)
    }

    /// The raw query (after the first `?`), or nil when the target has none.
    var rawQuery: ArraySlice<UInt8>? {
        pathEnd < rawTarget.endIndex ? rawTarget[(pathEnd + 1)...] : nil
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
