import Synchronization

/// The bytes of buffered response bodies a ``Server`` has handed to libmicrohttpd and that are not
/// sent yet: counted from when a handler's `.bytes` or `.storage` response is queued until its
/// request is finished (its last byte sent, or its client gone).
///
/// A handler can choose between a buffer and a stream by it, to bound the memory responses hold
/// at once. The server counts into the object of its configuration
/// (``ServerConfiguration/bufferedResponseBytes``); give the handlers that read it the same
/// object. Cellar's `App` has one, and `App.run` gives it to its server.
public final class BufferedResponseBytes: Sendable {
    private let bytes = Atomic<Int>(0)

    /// A count of nothing yet.
    public init() {}

    /// The bytes waiting to be sent now.
    public var count: Int { bytes.load(ordering: .relaxed) }

    /// A body of `count` bytes was handed to libmicrohttpd.
    func add(_ count: Int) {
        bytes.add(count, ordering: .relaxed)
    }

    /// libmicrohttpd let go of a body of `count` bytes.
    func remove(_ count: Int) {
        bytes.subtract(count, ordering: .relaxed)
    }
}
