/// A growable byte buffer written through a pointer: the storage of ``HTMLWriter`` and of the
/// JSON writer, which append to it on every row.
///
/// The array's count is its capacity and `count` bytes of it are written, so an append is a
/// store through a pointer, and ``takeBytes()`` hands the array over without a copy. The tail
/// past `count` is never read before it is written.
public struct ByteBuffer: ~Copyable, @unchecked Sendable {
    // Sendable: the buffer cannot be copied, so the memory `base` points to belongs to one owner.
    @usableFromInline var storage: [UInt8]
    /// `storage`'s elements, written without a uniqueness check: nothing else can hold the array,
    /// because the buffer cannot be copied and only ``takeBytes()`` hands it out (and lets go).
    @usableFromInline var base: UnsafeMutablePointer<UInt8>?
    @usableFromInline var length: Int
    @usableFromInline var capacity: Int

    public init(capacity: Int = 0) {
        storage = []
        base = nil
        length = 0
        self.capacity = 0
        if capacity > 0 { grow(toHold: capacity) }
    }

    /// Wraps an existing array (its contents are kept). Its spare capacity sizes the first growth,
    /// which makes a new array: `Array` cannot count reserved room as written without a copy.
    public init(reusing bytes: [UInt8]) {
        storage = bytes
        base = nil
        length = bytes.count
        capacity = 0
        adoptStorage()
    }

    /// Makes `storage` unique and points `base` at it.
    @usableFromInline mutating func adoptStorage() {
        capacity = storage.count
        base = capacity == 0 ? nil : storage.withUnsafeMutableBufferPointer { $0.baseAddress }
    }

    /// The number of bytes written.
    @inlinable public var count: Int { length }

    /// The bytes written so far (a copy; ``takeBytes()`` moves them out instead).
    public var bytes: [UInt8] {
        guard let base else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: length))
    }

    /// The bytes as a string (for tests and small documents).
    public var string: String {
        guard let base else { return "" }
        return String(decoding: UnsafeBufferPointer(start: base, count: length), as: UTF8.self)
    }

    /// Lends the bytes written so far, without a copy.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: length))
    }

    /// Empties the buffer.
    public mutating func removeAll(keepingCapacity: Bool = true) {
        length = 0
        if !keepingCapacity {
            storage = []
            adoptStorage()
        }
    }

    /// Takes the bytes out without a copy, leaving the buffer empty.
    public mutating func takeBytes() -> [UInt8] {
        var taken = storage
        storage = []
        base = nil
        capacity = 0
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
        adoptStorage()
    }

    /// Makes room for `extra` more bytes.
    @inlinable public mutating func reserve(_ extra: Int) {
        if length &+ extra > capacity { grow(toHold: length &+ extra) }
    }

    /// The room a buffer's first growth makes at least (see ``grow(toHold:)``).
    @usableFromInline static let firstCapacity = 1024 - 32

    @usableFromInline mutating func grow(toHold needed: Int) {
        // A new array whose count is its capacity, holding the written bytes; the rest is not
        // zero-filled. The first array holds 992 bytes: with its 32-byte header that is a 1,024-byte
        // block, which glibc's per-thread cache takes back and hands out again (it serves up to
        // 1,032 bytes), where a larger block would go through the arena's bins on every request.
        let target = max(needed, storage.capacity, storage.count &* 2, Self.firstCapacity)
        let written = length
        let old = base
        storage = [UInt8](unsafeUninitializedCapacity: target) { buffer, initialized in
            if written > 0, let old {
                buffer.baseAddress.unsafelyUnwrapped.update(from: old, count: written)
            }
            initialized = target
        }
        adoptStorage()
    }

    /// Appends raw bytes.
    @inlinable @inline(__always) public mutating func append(_ source: UnsafeRawBufferPointer) {
        let count = source.count
        guard count > 0, let from = source.baseAddress else { return }
        reserve(count)
        ByteBuffer.copy(from.assumingMemoryBound(to: UInt8.self), count: count, to: base.unsafelyUnwrapped + length)
        length &+= count
    }

    /// Copies `count` bytes. Markup literals and row identifiers are short, and for them a call to
    /// memcpy costs more than the copy: up to 64 bytes are moved as overlapping 8-byte words (for a
    /// literal the count is a constant, and only its own case is compiled in).
    @inlinable @inline(__always) public static func copy(_ from: UnsafePointer<UInt8>, count: Int, to: UnsafeMutablePointer<UInt8>) {
        if count <= 16 {
            if count >= 8 {
                ByteScan.store(ByteScan.load(from), at: to)
                ByteScan.store(ByteScan.load(from + (count &- 8)), at: to + (count &- 8))
            } else if count >= 4 {
                let source = UnsafeRawPointer(from)
                let target = UnsafeMutableRawPointer(to)
                target.storeBytes(of: source.loadUnaligned(as: UInt32.self), as: UInt32.self)
                target.storeBytes(
                    of: source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self), toByteOffset: count &- 4, as: UInt32.self)
            } else if count > 0 {
                // 1, 2 or 3 bytes: the first, the middle and the last (some of them the same).
                to[0] = from[0]
                to[count &>> 1] = from[count &>> 1]
                to[count &- 1] = from[count &- 1]
            }
        } else if count <= 32 {
            copyWords(from, to, 2)
            copyWords(from + (count &- 16), to + (count &- 16), 2)
        } else if count <= 64 {
            copyWords(from, to, 4)
            copyWords(from + (count &- 32), to + (count &- 32), 4)
        } else {
            UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: count)
        }
    }

    /// Copies `words` (2 or 4) 8-byte words: one half of ``copy(_:count:to:)``'s overlapping pair.
    @inlinable @inline(__always) static func copyWords(_ from: UnsafePointer<UInt8>, _ to: UnsafeMutablePointer<UInt8>, _ words: Int) {
        if words == 2 {
            let (a, b) = (ByteScan.load(from), ByteScan.load(from + 8))
            ByteScan.store(a, at: to)
            ByteScan.store(b, at: to + 8)
        } else {
            let (a, b, c, d) = (ByteScan.load(from), ByteScan.load(from + 8), ByteScan.load(from + 16), ByteScan.load(from + 24))
            ByteScan.store(a, at: to)
            ByteScan.store(b, at: to + 8)
            ByteScan.store(c, at: to + 16)
            ByteScan.store(d, at: to + 24)
        }
    }

    /// Appends one byte.
    @inlinable public mutating func append(_ byte: UInt8) {
        reserve(1)
        base.unsafelyUnwrapped[length] = byte
        length &+= 1
    }

    /// Appends bytes written by `body` straight into the buffer: it gets room for `capacity`
    /// bytes and returns how many it wrote.
    @inlinable public mutating func write(reserving capacity: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        // At least one byte, so that an empty buffer has storage to point at.
        reserve(Swift.max(capacity, 1))
        length &+= body(base.unsafelyUnwrapped + length)
    }
}
