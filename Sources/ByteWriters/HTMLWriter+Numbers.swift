extension HTMLWriter {
    /// Appends an integer in decimal.
    public mutating func text(_ number: Int) {
        buffer.write(reserving: 20) { HTMLWriter.writeDecimal(number, into: $0) }
    }

    /// Appends an integer with thousands separators (`10,000`).
    public mutating func text(grouping number: Int) {
        // Up to 20 digits, 6 commas and a sign; written right to left on the stack.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { scratch in
            var position = 32
            // Int.min has no positive twin: group its magnitude.
            var value = number.magnitude
            var digits = 0
            repeat {
                if digits > 0 && digits % 3 == 0 {
                    position -= 1
                    scratch[position] = UInt8(ascii: ",")
                }
                position -= 1
                scratch[position] = UInt8(ascii: "0") &+ UInt8(value % 10)
                value /= 10
                digits += 1
            } while value > 0
            if number < 0 {
                position -= 1
                scratch[position] = UInt8(ascii: "-")
            }
            append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(scratch)[position..<32]))
        }
    }

    /// Appends ` name="number"`.
    public mutating func attribute(_ name: StaticString, _ value: Int) {
        openAttribute(name)
        text(value)
        append(UInt8(ascii: "\""))
    }

    /// Writes `number` in decimal at `output`; returns the bytes written (at most 20).
    public static func writeDecimal(_ number: Int, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var out = output
        if number < 0 {
            out.pointee = UInt8(ascii: "-")
            out += 1
        }
        var value = number.magnitude
        if value < 10 {
            out.pointee = UInt8(ascii: "0") &+ UInt8(value)
            return out + 1 - output
        }
        var digits = 0
        var probe = value
        while probe > 0 {
            digits += 1
            probe /= 10
        }
        var position = digits
        while value > 0 {
            position -= 1
            out[position] = UInt8(ascii: "0") &+ UInt8(value % 10)
            value /= 10
        }
        return out + digits - output
    }
}
