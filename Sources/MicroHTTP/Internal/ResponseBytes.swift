/// A response body that libmicrohttpd sends from in place, kept alive until it frees the response,
/// and counted in the server's ``BufferedResponseBytes`` for as long.
final class ResponseBytes {
    private let bytes: [UInt8]
    private let total: BufferedResponseBytes
    /// The first byte of the array's storage; stable while `bytes` lives and is not mutated (a `let`).
    let baseAddress: UnsafeMutableRawPointer?

    init(_ bytes: [UInt8], countedIn total: BufferedResponseBytes) {
        self.bytes = bytes
        self.total = total
        baseAddress = bytes.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
        total.add(bytes.count)
    }

    deinit {
        total.remove(bytes.count)
    }
}
