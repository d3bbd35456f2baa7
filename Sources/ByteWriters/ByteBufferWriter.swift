/// A writer of one format that appends to a ``ByteBuffer`` it owns: ``HTMLWriter``,
/// ``JSONWriter`` and ``LogfmtWriter``. What they share — made empty, with room, or around a
/// buffer; the bytes counted, lent, copied or taken out — is written once here, and each writer
/// adds only the methods of its format.
///
/// The methods are inlinable, so that a call on a concrete writer compiles to the buffer's own
/// method, as a method of the writer did.
public protocol ByteBufferWriter: ~Copyable {
    /// What the writer has written. Bytes appended to it directly are not escaped: only for
    /// bytes of the writer's format, as ``takeBuffer()`` and ``init(buffer:)`` hand them over.
    var buffer: ByteBuffer { get set }

    /// Appends to `buffer` (its contents are kept); ``takeBuffer()`` gives it back.
    init(buffer: consuming ByteBuffer)
}

extension ByteBufferWriter where Self: ~Copyable {
    /// An empty writer, its buffer allocated for `capacity` bytes (or on the first write).
    @inlinable public init(capacity: Int = 0) {
        self.init(buffer: ByteBuffer(capacity: capacity))
    }

    /// The number of bytes written.
    @inlinable public var count: Int { buffer.count }

    /// The bytes written so far (a copy; ``takeStorage()`` moves them out instead).
    @inlinable public var bytes: [UInt8] { buffer.bytes }

    /// The bytes as a string (for tests and small documents).
    @inlinable public var string: String { buffer.string }

    /// Lends the bytes written so far, without a copy.
    @inlinable public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeBytes(body)
    }

    /// Takes the buffer out with what was written, leaving the writer empty: for the next writer
    /// of the same document, or one of another format.
    @inlinable public mutating func takeBuffer() -> ByteBuffer { exchange(&buffer, with: ByteBuffer()) }

    /// Hands `buffer` to the writer to append to (its contents are kept), leaving it empty;
    /// ``takeBuffer()`` gives it back.
    @inlinable public mutating func adopt(_ buffer: inout ByteBuffer) {
        self.buffer = exchange(&buffer, with: ByteBuffer())
    }

    /// Takes the bytes out as an array (a copy), leaving the writer empty.
    @inlinable public mutating func takeBytes() -> [UInt8] { buffer.takeBytes() }

    /// Takes the bytes out without a copy (see ``ByteBuffer/takeStorage()``), leaving the writer empty.
    @inlinable public mutating func takeStorage() -> ByteStorage { buffer.takeStorage() }

    /// Moves the first `count` bytes out (the rest stay), for a stream that sends in chunks.
    @inlinable public mutating func removeFirst(_ count: Int) { buffer.removeFirst(count) }

    /// Drops what was written after the first `count` bytes.
    @inlinable public mutating func truncate(to count: Int) { buffer.truncate(to: count) }

    /// Forgets what was written; `keepingCapacity: false` also gives the memory back.
    @inlinable public mutating func removeAll(keepingCapacity: Bool = true) { buffer.removeAll(keepingCapacity: keepingCapacity) }

    /// Appends bytes as they are, for the writers' own methods and the package's.
    @inlinable @inline(__always) package mutating func append(_ source: UnsafeRawBufferPointer) { buffer.append(source) }
}
