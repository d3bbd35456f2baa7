/// What libmicrohttpd's content reader holds for an event stream's response: the stream, where
/// it is counted, and the byte count for the access log.
///
/// Retained for the response's lifetime and released in its free callback, when the stream is
/// counted out of the ``EventStreamRegistry`` and its close handlers run.
final class EventStreamConnection: ContentReader {
    let stream: EventStream
    private let registry: EventStreamRegistry
    private let address: String
    private let counter: ByteCounter

    init(stream: EventStream, registry: EventStreamRegistry, address: String, counter: ByteCounter) {
        self.stream = stream
        self.registry = registry
        self.address = address
        self.counter = counter
    }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> ContentReadResult {
        let result = stream.read(into: buffer, capacity: capacity)
        if case .bytes(let count) = result { counter.add(count) }
        return result
    }

    /// libmicrohttpd freed the response: the connection is done with the stream.
    func ended() {
        registry.remove(stream, address: address)
        stream.finish()
    }
}
