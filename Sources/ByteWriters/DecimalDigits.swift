/// Integers written as decimal digits straight into memory: the one digit writer of every writer
/// of the package (HTML, JSON, logfmt, access lines, page links, database reals).
public enum DecimalDigits {
    /// The most bytes ``write(_:into:)-(Int,_)`` writes: a sign and 19 digits, or a `UInt64`'s 20.
    @inlinable public static var maximumCount: Int { 20 }

    /// Writes `value` at `output` (room for ``maximumCount`` bytes); returns the bytes written.
    public static func write(_ value: UInt64, into output: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 10 {
            output.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            return 1
        }
        let count = count(of: value)
        write(value, width: count, into: output)
        return count
    }

    /// Writes `value`, with a `-` before it when negative; returns the bytes written.
    public static func write(_ value: Int, into output: UnsafeMutablePointer<UInt8>) -> Int {
        guard value < 0 else { return write(UInt64(value), into: output) }
        output.pointee = UInt8(ascii: "-")
        return 1 &+ write(UInt64(value.magnitude), into: output + 1)
    }

    /// Writes the low `width` digits of `value`, zeros in front (`7` in width 3 is `007`): the
    /// fields of a timestamp, the decimals of a fraction.
    public static func write(_ value: UInt64, width: Int, into output: UnsafeMutablePointer<UInt8>) {
        var rest = value
        var position = width
        while position > 0 {
            position &-= 1
            let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
            output[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digit)
            rest = quotient
        }
    }

    /// How many digits `value` has (1 for 0).
    public static func count(of value: UInt64) -> Int {
        var count = 1
        var probe = value
        while probe >= 10 {
            count &+= 1
            probe /= 10
        }
        return count
    }
}
