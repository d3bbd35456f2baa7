import ByteWriters
import TableKit

/// Reals written as short decimals without the general shortest-digits algorithm, for the values
/// databases mostly hold: prices, weights, ratings — at most three decimal places.
///
/// A real `r` is written as `k / 10ⁿ` (n = 1, 2, 3, the first that fits) when `Double(k) / 10ⁿ == r`
/// for the whole number `k` nearest `r × 10ⁿ`. Division is correctly rounded and so is reading the
/// decimal back, so the text reads back as exactly `r`; and no shorter decimal can, as two
/// decimals that far apart never round to the same double below 10¹⁵. Any other real is left to
/// `Double.description`.
enum DecimalText {
    /// The most bytes ``write(_:into:)`` writes: a sign, 15 digits and a point.
    static let capacity = 24

    /// Writes `real` as `123.45` into `out` (room for ``capacity`` bytes) and returns the count,
    /// or returns nil when it is whole or needs more than three decimal places.
    static func write(_ real: Double, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        guard real.isFinite, abs(real) < 1e12, real != real.rounded() else { return nil }
        var scale = 1
        for places in 1...3 {
            scale *= 10
            let scaled = (real * Double(scale)).rounded()
            guard scaled / Double(scale) == real else { continue }
            let magnitude = Int(abs(scaled))
            var count = 0
            if real < 0 {
                out[0] = UInt8(ascii: "-")
                count = 1
            }
            count += DecimalDigits.write(magnitude / scale, into: out + count)
            out[count] = UInt8(ascii: ".")
            count += 1
            // The fraction's digits, zeros in front included (`0.05`).
            DecimalDigits.write(UInt64(magnitude % scale), width: places, into: out + count)
            return count + places
        }
        return nil
    }

    /// `real` as text: the short form when it applies, else `Double.description` (`82.0`, `1e+300`).
    static func text(_ real: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            guard let count = write(real, into: buffer.baseAddress!) else { return real.description }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }
}

extension DecimalText {
    /// Whether `text` is a finite decimal number as SQL and JSON write one: an optional sign,
    /// digits with an optional point (`12`, `-0.5`, `.5`, `5.`), and an optional exponent (`1e-3`).
    /// No spaces, no `NaN` or `Infinity`, no hexadecimal.
    static func isDecimal(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
