import Logging

/// Adapts a ``ResponseBodyProducer`` to libmicrohttpd's content-reader callback.
///
/// Retained for the response's lifetime and released in the response's free callback, which is
/// when the producer's `deinit` runs, whether the body was sent whole or the client vanished.
final class StreamBox: ContentReader {
    private let producer: any ResponseBodyProducer
    private let counter: ByteCounter
    private let logger: Logger
    private let requestID: String
    /// The buffer is kept between chunks up to twice this size.
    private let chunkSize: Int
    private var pending: [UInt8] = []
    private var offset = 0
    private var finished = false
    private var failed = false

    init(producer: any ResponseBodyProducer, counter: ByteCounter, logger: Logger, requestID: String, chunkSize: Int) {
        self.chunkSize = chunkSize
        self.producer = producer
        self.counter = counter
        self.logger = logger
        self.requestID = requestID
    }

    /// Copies up to `capacity` bytes into `buffer`, asking the producer for more as the pending bytes run out.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> ContentReadResult {
        var written = 0
        while written < capacity {
            if offset < pending.count {
                let count = min(capacity - written, pending.count - offset)
                pending.withUnsafeBytes { source in
                    (buffer + written).copyMemory(from: source.baseAddress! + offset, byteCount: count)
                }
                offset += count
                written += count
                continue
            }
            if finished || failed { break }
            // Keep the buffer for the next chunk, unless a producer handed over a large one (a
            // list's first buffered attempt): memory per stream stays near the chunk size.
            if pending.capacity <= 2 * chunkSize {
                pending.removeAll(keepingCapacity: true)
            } else {
                pending = []
                pending.reserveCapacity(chunkSize + chunkSize / 4)
            }
            offset = 0
            do {
                finished = try !producer.produce(into: &pending)
            } catch {
                failed = true
                logger.error(
                    "Response stream failed; closing the connection",
                    metadata: ["request_id": "\(requestID)", "error": "\(String(describing: error))"])
                pending.removeAll()
            }
            // A producer that appended nothing but is not finished: return what we have; libmicrohttpd calls again.
            if pending.isEmpty && !finished && !failed { break }
        }
        counter.add(written)
        if written > 0 { return .bytes(written) }
        return failed ? .error : (finished ? .endOfStream : .bytes(0))
    }
}
