/// Bytes in memory of their own, freed when the storage is: what a ``ByteBuffer`` hands over
/// (``ByteBuffer/takeStorage()``) without a copy, for a response body to send from.
///
/// The bytes never change and never move while the storage lives, so a C library may read them
/// from ``baseAddress`` for as long as it keeps the storage retained (libmicrohttpd does, until
/// it frees the response).
public final class ByteStorage: @unchecked Sendable {
    // Sendable: the memory is written before `init` returns and only read after.
    /// The first byte; nil when the storage is empty.
    public let baseAddress: UnsafeRawPointer?
    /// The number of bytes.
    public let count: Int

    /// Takes ownership of `memory`, whose first `count` bytes are written.
    init(taking memory: UnsafeMutablePointer<UInt8>?, count: Int) {
        baseAddress = memory.map { UnsafeRawPointer($0) }
        self.count = count
    }

    /// A copy of `bytes`.
    public convenience init(copying bytes: [UInt8]) {
        let memory = bytes.isEmpty ? nil : UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        if let memory {
            bytes.withUnsafeBufferPointer { memory.update(from: $0.baseAddress.unsafelyUnwrapped, count: $0.count) }
        }
        self.init(taking: memory, count: bytes.count)
    }

    deinit {
        baseAddress?.deallocate()
    }

    /// Lends the bytes.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: baseAddress, count: count))
    }

    /// The bytes, copied into an array.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}
