/// A growable byte buffer written through a pointer: the storage of ``HTMLWriter`` and of the
/// JSON writer, which append to it on every row.
///
/// The array's count is its capacity and `count` bytes of it are written, so an append is a
/// store through a pointer, and ``takeBytes()`` hands the array over without a copy. The tail
/// past `count` is never read before it is written.
public struct ByteBuffer: Sendable {
    @usableFromInline var storage: [UInt8]
    @usableFromInline var length: Int

    public init(capacity: Int = 0) {
        storage = []
        length = 0
        if capacity > 0 { grow(toHold: capacity) }
    }

    /// Wraps an existing array (its contents are kept).
    public init(reusing bytes: [UInt8]) {
        storage = bytes
        length = bytes.count
    }

    /// The number of bytes written.
    @inlinable public var count: Int { length }

    /// The bytes written so far (a copy; ``takeBytes()`` moves them out instead).
    public var bytes: [UInt8] { Array(storage[..<length]) }

    /// The bytes as a string (for tests and small documents).
    public var string: String {
        storage.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[..<length]), as: UTF8.self) }
    }

    /// Empties the buffer.
    public mutating func removeAll(keepingCapacity: Bool = true) {
        length = 0
        if !keepingCapacity { storage = [] }
    }

    /// Takes the bytes out without a copy, leaving the buffer empty.
    public mutating func takeBytes() -> [UInt8] {
        var taken = storage
        storage = []
        taken.removeSubrange(length...)
        length = 0
        return taken
    }

    /// Drops what was written after the first `count` bytes.
    public mutating func truncate(to count: Int) {
        length = min(length, max(0, count))
    }

    /// Moves the first `count` bytes out (the rest stay).
    public mutating func removeFirst(_ count: Int) {
        storage.removeFirst(count)
        length -= count
    }

    /// Makes room for `extra` more bytes.
    @inlinable public mutating func reserve(_ extra: Int) {
        if length &+ extra > storage.count { grow(toHold: length &+ extra) }
    }

    @usableFromInline mutating func grow(toHold needed: Int) {
        // A new array whose count is its capacity, holding the written bytes; the rest is not
        // zero-filled (a byte-wise fill was most of the time of a streamed million rows in debug).
        let target = max(needed, storage.capacity, storage.count &* 2, 1024)
        let written = length
        storage = storage.withUnsafeBufferPointer { old in
            [UInt8](unsafeUninitializedCapacity: target) { buffer, initialized in
                if written > 0, let source = old.baseAddress {
                    buffer.baseAddress.unsafelyUnwrapped.update(from: source, count: written)
                }
                initialized = target
            }
        }
    }

    /// Appends raw bytes.
    @inlinable public mutating func append(_ source: UnsafeRawBufferPointer) {
        let count = source.count
        guard count > 0, let base = source.baseAddress else { return }
        reserve(count)
        let at = length
        storage.withUnsafeMutableBytes { $0.baseAddress.unsafelyUnwrapped.advanced(by: at).copyMemory(from: base, byteCount: count) }
        length = at &+ count
    }

    /// Appends one byte.
    @inlinable public mutating func append(_ byte: UInt8) {
        reserve(1)
        let at = length
        storage.withUnsafeMutableBufferPointer { $0[at] = byte }
        length = at &+ 1
    }

    /// Appends bytes written by `body` straight into the buffer: it gets room for `capacity`
    /// bytes and returns how many it wrote.
    @inlinable public mutating func write(reserving capacity: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(capacity)
        let at = length
        length = storage.withUnsafeMutableBufferPointer { body($0.baseAddress.unsafelyUnwrapped + at) } + at
    }
}
