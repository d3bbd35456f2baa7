/// A 64-bit FNV-1a hash that is the same in every process and on every machine (Swift's `Hasher`
/// is seeded per process). For validators and fingerprints, not for hash tables or secrets.
package struct StableHash: Sendable {
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    /// Mixes in the bytes of `text`, after their count: ("ab", "c") and ("a", "bc") differ.
    package mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            combine(UInt64(bytes.count))
            for byte in bytes { mixByte(byte) }
        }
    }

    /// Mixes in `bytes`, after their count, as ``combine(_:)-(String)`` does a text's.
    package mutating func combine(bytes: [UInt8]) {
        combine(UInt64(bytes.count))
        for byte in bytes { mixByte(byte) }
    }

    /// Mixes in the eight bytes of `number`, least significant first.
    package mutating func combine(_ number: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { mixByte(UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
    }

    private mutating func mixByte(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
}
