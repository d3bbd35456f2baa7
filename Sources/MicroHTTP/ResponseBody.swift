import ByteWriters

/// The body of a ``Response``: nothing, bytes in memory, a stream produced on demand, or Server-Sent Events.
///
/// A `.bytes` body is sent with `Content-Length`; a `.stream` body with
/// `Transfer-Encoding: chunked`, pulled from its producer as the client reads. A HEAD request
/// answered with a stream gets the headers only, with `Content-Length: 0` and the producer released
/// unused (libmicrohttpd 0.9.75 would otherwise write a stray chunk terminator).
public enum ResponseBody {
    /// No body (`Content-Length: 0`).
    case empty
    /// A body held in memory (copied once more when it is sent).
    case bytes([UInt8])
    /// A body held in memory of its own, sent from where it is (a page a writer wrote, a
    /// cached file): libmicrohttpd keeps the storage until it has sent it.
    case storage(ByteStorage)
    /// A body produced part by part; see ``ResponseBodyProducer``.
    case stream(any ResponseBodyProducer)
    /// Server-Sent Events the app sends from any thread while the connection waits without a
    /// worker thread; see ``EventStream``. Chunked, with `Content-Type: text/event-stream` and
    /// `Cache-Control: no-cache` unless the response sets them.
    case events(EventStream)

    /// The bytes of a body held in memory (a copy), or nil for a stream.
    public var bufferedBytes: [UInt8]? {
        switch self {
        case .empty: []
        case .bytes(let bytes): bytes
        case .storage(let storage): storage.bytes
        case .stream, .events: nil
        }
    }
}
