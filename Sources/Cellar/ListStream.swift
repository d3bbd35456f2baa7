import MicroHTTP

/// Streams a list body that outgrew the buffer: first what was already written, then a chunk at a time.
///
/// Released by the server when the response is done or the client is gone; the body's
/// ``TableView`` goes with it and returns its pool of cells to the registry.
final class ListStream: ResponseBodyProducer {
    private let body: any ListBody
    private var pending: [UInt8]?
    private let chunkSize: Int

    init(body: any ListBody, pending: [UInt8], chunkSize: Int) {
        self.body = body
        self.pending = pending
        self.chunkSize = chunkSize
    }

    func produce(into buffer: inout [UInt8]) throws -> Bool {
        if var pending {
            self.pending = nil
            // The bytes of the first attempt are handed over, not copied (the caller's buffer is
            // empty at the first call; the server keeps no larger buffer once they are sent).
            if buffer.isEmpty { swap(&buffer, &pending) } else { buffer.append(contentsOf: pending) }
            return true
        }
        return try !body.write(into: &buffer, pausingAt: buffer.count + chunkSize)
    }
}
