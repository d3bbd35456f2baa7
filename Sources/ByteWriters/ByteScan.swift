internal import CByteScan

/// Word-at-a-time tests for the escapers' short texts: a text of up to sixteen bytes is tested
/// with a few vector instructions (SSE2, from `CByteScan`) or a handful of integer operations, and
/// copied with one or two stores when there is nothing to escape. Longer texts, and texts with
/// something to escape, go through `cellar_escape_blocks` in `CByteScan`.
///
/// The masks are conservative: every byte that needs escaping is flagged, and some that do not
/// (all bytes ≥ 0x7F, for instance) are flagged too, for the caller's byte table to decide. Only
/// the *lowest* flagged byte of a word is meaningful (a borrow can flag bytes above it), which
/// is all the escapers use.
public enum ByteScan {
    // Computed, not stored: a `static let` is read through a lazy-initialisation check on every use.
    @inlinable @inline(__always) static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable @inline(__always) static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// High bit set in each byte of `word` that is zero (exact for the lowest such byte).
    @inlinable @inline(__always) static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highs
    }

    /// High bit set in each byte equal to `byte` (exact for the lowest).
    @inlinable @inline(__always) static func bytes(_ word: UInt64, equalTo byte: UInt8) -> UInt64 {
        zeroBytes(word ^ (ones &* UInt64(byte)))
    }

    /// Bytes that are controls (< 0x20) or ≥ 0x7F, for both escapers.
    @inlinable @inline(__always) static func controlsAndHigh(_ word: UInt64) -> UInt64 {
        // < 0x20: the byte minus 0x20 borrows; ≥ 0x7F: the byte plus 1 reaches the high bit.
        ((word &- ones &* 0x20) & ~word & highs) | ((word | (word &+ ones)) & highs)
    }

    /// The bytes HTML text and attribute values need a look at: `& < > " '`, controls, and
    /// everything from 0x7F up (DEL, C1 controls and noncharacters are found by the table).
    @inlinable @inline(__always) public static func htmlMask(_ word: UInt64) -> UInt64 {
        // 0x26 and 0x27 are one test with bit 0 set; 0x3C and 0x3E one with bit 1 set.
        controlsAndHigh(word) | bytes(word, equalTo: 0x22) | zeroBytes((word | ones) ^ (ones &* 0x27))
            | zeroBytes((word | (ones &* 0x02)) ^ (ones &* 0x3E))
    }

    /// The bytes a JSON string needs a look at: `"`, `\`, `& < > '`, controls, and everything from
    /// 0x7F up (0xE2 starts U+2028 and U+2029).
    @inlinable @inline(__always) public static func jsonMask(_ word: UInt64) -> UInt64 {
        htmlMask(word) | bytes(word, equalTo: 0x5C)
    }

    /// Loads eight bytes from anywhere.
    @inlinable @inline(__always) public static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }

    /// Stores eight bytes anywhere.
    @inlinable @inline(__always) public static func store(_ word: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: word.littleEndian, as: UInt64.self)
    }

    /// Which bytes an escaper looks at: ``htmlMask(_:)``'s or ``jsonMask(_:)``'s.
    public enum Flags: Sendable {
        case html
        case json
    }

    /// ``copyIfShortAndClean(_:count:to:flags:)`` for HTML text, in Swift the caller inlines:
    /// copies 1 to 16 bytes that ``htmlMask(_:)`` flags nowhere and says whether it did. 8 to 16
    /// bytes are two overlapping words; fewer are gathered into one. `out` must have room for 16 bytes.
    @inlinable @inline(__always) static func copyIfShortAndCleanHTML(
        _ input: UnsafePointer<UInt8>, count: Int, to out: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        guard count >= 8 else { return copyIfTinyAndClean(input, count: count, to: out, flags: .html) }
        let first = load(input)
        let last = load(input + (count &- 8))
        guard htmlMask(first) | htmlMask(last) == 0 else { return false }
        store(first, at: out)
        store(last, at: out + (count &- 8))
        return true
    }

    /// Copies a text of 1 to 16 bytes that `flags` flags nowhere, and says whether it did (false:
    /// the caller escapes it). Most texts of a row — names, roles, a link's base — are such texts.
    /// 8 to 16 bytes are two overlapping words; fewer are gathered into one word without reading
    /// past the text, and stored as a word: the caller's output must have room for 8 bytes.
    @inline(__always) static func copyIfShortAndClean(
        _ input: UnsafePointer<UInt8>, count: Int, to out: UnsafeMutablePointer<UInt8>, flags: Flags
    ) -> Bool {
        guard count >= 8 else { return copyIfTinyAndClean(input, count: count, to: out, flags: flags) }
        guard count <= 16 else { return false }
        let first = load(input)
        let last = load(input + (count &- 8))
        // Both words in one vector test.
        let flagged =
            switch flags {
            case .html: cellar_scan_words_html(first, last)
            case .json: cellar_scan_words_json(first, last)
            }
        guard flagged == 0 else { return false }
        store(first, at: out)
        store(last, at: out + (count &- 8))
        return true
    }

    /// The 1 to 8 bytes at `input` as one little-endian word, zeros above them, read without
    /// going past them.
    @inlinable @inline(__always) static func gather(_ input: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let raw = UnsafeRawPointer(input)
        if count == 8 { return raw.loadUnaligned(as: UInt64.self) }
        if count >= 4 {
            let first = UInt64(raw.loadUnaligned(as: UInt32.self))
            let last = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            return first | last &<< UInt64(8 &* (count &- 4))
        }
        let middle = count &>> 1
        return UInt64(input[0]) | UInt64(input[middle]) &<< UInt64(8 &* middle) | UInt64(input[count &- 1]) &<< UInt64(8 &* (count &- 1))
    }

    /// Stores the low `count` (1 to 8) bytes of `word` at `output`, and nothing past them.
    @inlinable @inline(__always) static func scatter(_ word: UInt64, count: Int, to output: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(output)
        if count == 8 {
            raw.storeBytes(of: word, as: UInt64.self)
        } else if count >= 4 {
            raw.storeBytes(of: UInt32(truncatingIfNeeded: word), as: UInt32.self)
            raw.storeBytes(of: UInt32(truncatingIfNeeded: word &>> UInt64(8 &* (count &- 4))), toByteOffset: count &- 4, as: UInt32.self)
        } else if count >= 2 {
            raw.storeBytes(of: UInt16(truncatingIfNeeded: word), as: UInt16.self)
            raw.storeBytes(of: UInt16(truncatingIfNeeded: word &>> UInt64(8 &* (count &- 2))), toByteOffset: count &- 2, as: UInt16.self)
        } else {
            output.pointee = UInt8(truncatingIfNeeded: word)
        }
    }

    /// High bit set in each of the low `count` (1 to 8) bytes of `word` that is not an ASCII digit;
    /// zero when all are digits. Bit 7 is cleared before each addition, so no carry crosses a byte.
    @inlinable @inline(__always) static func nonDigits(_ word: UInt64, count: Int) -> UInt64 {
        let low7 = word & 0x7F7F_7F7F_7F7F_7F7F
        let aboveNine = low7 &+ 0x4646_4646_4646_4646  // bit 7 set from 0x3A up
        let fromZero = low7 &+ 0x5050_5050_5050_5050  // bit 7 set from 0x30 up
        let flagged = (word | aboveNine | ~fromZero) & 0x8080_8080_8080_8080
        return flagged & lowBytes(count)
    }

    /// A mask of the low `count` (1 to 8) bytes of a word.
    @inlinable @inline(__always) static func lowBytes(_ count: Int) -> UInt64 {
        UInt64.max &>> UInt64(64 &- 8 &* count)
    }

    /// ``copyIfShortAndClean(_:count:to:flags:)`` for 1 to 7 bytes: two overlapping 4-byte loads,
    /// or three single bytes, make one word whose bytes from `count` on are zero (flagged as
    /// controls, so cut off the mask: a borrow only flags bytes above the one it starts from).
    @inlinable @inline(__always) static func copyIfTinyAndClean(
        _ input: UnsafePointer<UInt8>, count: Int, to out: UnsafeMutablePointer<UInt8>, flags: Flags
    ) -> Bool {
        guard count > 0 else { return false }
        let word = gather(input, count: count)
        let flagged =
            switch flags {
            case .html: htmlMask(word)
            case .json: jsonMask(word)
            }
        guard flagged & lowBytes(count) == 0 else { return false }
        store(word, at: out)
        return true
    }
}
