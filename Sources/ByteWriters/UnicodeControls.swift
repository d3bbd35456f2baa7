/// The characters the JSON and logfmt writers escape although their formats allow them: U+2028
/// and U+2029, which end lines in JavaScript and in some log viewers, and the bidirectional
/// controls U+202A–U+202E and U+2066–U+2069, which show text in another order than it is stored
/// (`\u202E` reversing the rest of a log line or of a field in a JSON viewer). All are three
/// UTF-8 bytes starting with 0xE2.
enum UnicodeControls {
    /// The character encoded as `E2 second third` when it is one of them; nil otherwise.
    @inline(__always) static func escapedUnit(_ second: UInt8, _ third: UInt8) -> UInt16? {
        switch (second, third) {
        case (0x80, 0xA8...0xAE), (0x81, 0xA6...0xA9): 0x2000 | UInt16(second & 0x3F) << 6 | UInt16(third & 0x3F)
        default: nil
        }
    }

    /// The character starting at `index` of `bytes` when it is one of them; nil otherwise.
    @inline(__always) static func escapedUnit(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16? {
        guard bytes[index] == 0xE2, index &+ 2 < bytes.count else { return nil }
        return escapedUnit(bytes[index &+ 1], bytes[index &+ 2])
    }
}
