/// A growable byte buffer written through a pointer: the storage of ``HTMLWriter``, of
/// ``JSONWriter`` and of ``LogfmtWriter``, which append to it on every row.
///
/// It owns its memory (allocated, grown and freed by it), so an append is a store through a
/// pointer that stays valid as long as the buffer does, and ``takeStorage()`` hands the memory to
/// a ``ByteStorage`` without a copy: what a response body sends from. The bytes past `count` are
/// never read before they are written.
public struct ByteBuffer: ~Copyable, @unchecked Sendable {
    // Sendable: the buffer cannot be copied, so the memory `base` points to belongs to one owner.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>?
    @usableFromInline var length: Int
    @usableFromInline var capacity: Int

    public init(capacity: Int = 0) {
        base = nil
        length = 0
        self.capacity = 0
        if capacity > 0 { grow(toHold: capacity) }
    }

    /// A buffer holding a copy of `bytes`, with room for more.
    public init(copying bytes: [UInt8]) {
        self.init(capacity: bytes.count)
        bytes.withUnsafeBytes { append($0) }
    }

    deinit {
        base?.deallocate()
    }

    /// The number of bytes written.
    @inlinable public var count: Int { length }

    /// The bytes written so far (a copy; ``takeStorage()`` moves them out instead).
    public var bytes: [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    /// The bytes as a string (for tests and small documents).
    public var string: String {
        withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Lends the bytes written so far, without a copy.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: length))
    }

    /// Empties the buffer; `keepingCapacity: false` also gives the memory back.
    public mutating func removeAll(keepingCapacity: Bool = true) {
        length = 0
        if !keepingCapacity {
            base?.deallocate()
            base = nil
            capacity = 0
        }
    }

    /// The bytes written, copied into an array; the buffer is left empty (its memory kept for
    /// what is written next).
    public mutating func takeBytes() -> [UInt8] {
        let taken = bytes
        length = 0
        return taken
    }

    /// Hands the bytes written and the memory holding them to a ``ByteStorage``, without a copy;
    /// the buffer is left empty, without memory.
    public mutating func takeStorage() -> ByteStorage {
        let storage = ByteStorage(taking: base, count: length)
        base = nil
        length = 0
        capacity = 0
        return storage
    }

    /// Drops what was written after the first `count` bytes.
    public mutating func truncate(to count: Int) {
        length = min(length, max(0, count))
    }

    /// Moves the first `count` bytes out (the rest stay, moved to the front); as ``truncate(to:)``,
    /// a count beyond the bytes written removes them all, and a negative one none.
    public mutating func removeFirst(_ count: Int) {
        let count = min(length, max(0, count))
        guard count > 0, let base else { return }
        (base).update(from: base + count, count: length - count)
        length -= count
    }

    /// Makes room for `extra` more bytes.
    @inlinable public mutating func reserve(_ extra: Int) {
        if length &+ extra > capacity { grow(toHold: length &+ extra) }
    }

    /// The room a buffer's first growth makes at least (see ``grow(toHold:)``).
    @usableFromInline static var firstCapacity: Int { 1024 - 32 }

    @usableFromInline mutating func grow(toHold needed: Int) {
        // A new block holding the written bytes; the rest is not zero-filled. The first holds 992
        // bytes, as a first array did (a 1,024-byte block with its header, which glibc's
        // per-thread cache takes back and hands out again); then the size doubles.
        let target = max(needed, capacity &* 2, Self.firstCapacity)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: target)
        if let old = base {
            if length > 0 { grown.update(from: old, count: length) }
            old.deallocate()
        }
        base = grown
        capacity = target
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
