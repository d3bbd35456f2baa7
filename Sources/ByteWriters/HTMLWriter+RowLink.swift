extension HTMLWriter {
    /// What a table renderer (TableKit's) has already written of the row in progress, so that the row's link
    /// (`base/identifier`, in the row element's `id` and again in its `href`) is copied rather than
    /// escaped and encoded a second time: the list's `base/`, escaped once per render, and where in
    /// this buffer the row's identifier stands percent-encoded.
    ///
    /// It names the two strings by their bits, without retaining them: equal bits are the same
    /// string (the same inline bytes, or the same storage, which the renderer keeps alive for the
    /// row), so a selection that matches is one whose `write(into:)` would write these very bytes.
    /// Whatever takes bytes out of the writer (``removeAll(keepingCapacity:)``, ``takeBytes()``,
    /// ``removeFirst(_:)``) forgets it: a cell that empties the writer mid-row gets its links
    /// written again, not copied from bytes that are gone.
    // Unchecked: `prefix` is set by the renderer for one row and cleared before the writer can
    // move to another thread.
    @usableFromInline package struct RowLink: @unchecked Sendable {
        @usableFromInline package var base: StringBits
        @usableFromInline package var identifier: StringBits
        /// `base` escaped for an attribute value, then `/`; owned by the renderer.
        @usableFromInline package var prefix: UnsafeRawBufferPointer
        /// Where the table wrote the identifier, percent-encoded, in this writer's bytes.
        @usableFromInline package var encoded: Range<Int>

        @inlinable package init(base: StringBits, identifier: StringBits, prefix: UnsafeRawBufferPointer, encoded: Range<Int>) {
            self.base = base
            self.identifier = identifier
            self.prefix = prefix
            self.encoded = encoded
        }
    }

    /// A string's two words, compared without looking at (or retaining) what they point to.
    @usableFromInline package struct StringBits: Equatable {
        @usableFromInline var first: UInt64
        @usableFromInline var second: UInt64

        @inlinable @inline(__always) package init(_ string: String) {
            (first, second) = unsafeBitCast(string, to: (UInt64, UInt64).self)
        }

        /// The bits of the string stored at `pointer`.
        @inlinable @inline(__always) package init(at pointer: UnsafeRawPointer) {
            first = pointer.loadUnaligned(as: UInt64.self)
            second = pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        }
    }

    /// Writes the link of the row in progress by copying what the table wrote for it, when `base`
    /// and `identifier` are that row's strings; returns false (having written nothing) otherwise.
    @inlinable @inline(__always) package mutating func copyRowLink(base: StringBits, identifier: StringBits) -> Bool {
        guard let link = rowLink, link.identifier == identifier, link.base == base else { return false }
        appendRowLink(link)
        return true
    }

    @inlinable @inline(__always) mutating func appendRowLink(_ link: RowLink) {
        let count = link.prefix.count &+ link.encoded.count
        // The identifier's bytes are earlier in this same buffer: find them after the reserve,
        // which may have moved it.
        buffer.reserve(count)
        let start = buffer.base.unsafelyUnwrapped
        let output = start + buffer.length
        ByteBuffer.copy(link.prefix.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self), count: link.prefix.count, to: output)
        ByteBuffer.copy(start + link.encoded.lowerBound, count: link.encoded.count, to: output + link.prefix.count)
        buffer.length &+= count
    }
}
