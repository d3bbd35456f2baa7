import ByteWriters
import MicroHTTP

/// Streams a list body that outgrew the buffer: first what was already written, then a chunk at a time.
///
/// Released by the server when the response is done or the client is gone; the body's
/// ``TableView`` goes with it and returns its pool of cells to the registry.
final class ListStream: ResponseBodyProducer {
    private let body: any ListBody
    private var pending: ByteStorage?
    private let chunkSize: Int
    /// What the body writes a chunk into, kept from chunk to chunk.
    private var chunk = ByteBuffer()

    init(body: any ListBody, pending: ByteStorage, chunkSize: Int) {
        self.body = body
        self.pending = pending
        self.chunkSize = chunkSize
    }

    func produce(into buffer: inout [UInt8]) throws -> Bool {
        if let pending {
            self.pending = nil
            pending.withUnsafeBytes { buffer.append(contentsOf: $0) }
            return true
        }
        let finished = try body.write(into: &chunk, pausingAt: chunkSize)
        chunk.withUnsafeBytes { buffer.append(contentsOf: $0) }
        chunk.removeAll()
        return !finished
    }
}
