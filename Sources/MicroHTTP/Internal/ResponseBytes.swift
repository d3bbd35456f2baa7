import Synchronization

/// A response body that libmicrohttpd sends from in place, kept alive until it frees the response.
final class ResponseBytes {
    private let bytes: [UInt8]
    /// The first byte of the array's storage; stable while `bytes` lives and is not mutated (a `let`).
    let baseAddress: UnsafeMutableRawPointer?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        baseAddress = bytes.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
        Response.awaitingSend.add(bytes.count, ordering: .relaxed)
    }

    deinit {
        Response.awaitingSend.subtract(bytes.count, ordering: .relaxed)
    }
}
