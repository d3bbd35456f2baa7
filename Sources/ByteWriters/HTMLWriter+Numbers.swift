extension HTMLWriter {
    /// Appends an integer in decimal.
    public mutating func text(_ number: Int) {
        buffer.write(reserving: DecimalDigits.maximumCount) { DecimalDigits.write(number, into: $0) }
    }

    /// Appends an integer with thousands separators (`10,000`).
    public mutating func text(grouping number: Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalDigits.maximumCount) { scratch in
            let digits = scratch.baseAddress.unsafelyUnwrapped
            // Int.min has no positive twin: group its magnitude.
            let count = DecimalDigits.write(UInt64(number.magnitude), into: digits)
            // The digits with a comma before each group of three but the first, and the sign.
            buffer.write(reserving: count + count / 3 + 1) { out in
                var written = 0
                if number < 0 {
                    out[0] = UInt8(ascii: "-")
                    written = 1
                }
                for index in 0..<count {
                    if index > 0 && (count - index) % 3 == 0 {
                        out[written] = UInt8(ascii: ",")
                        written += 1
                    }
                    out[written] = digits[index]
                    written += 1
                }
                return written
            }
        }
    }

    /// Appends ` name="number"`.
    public mutating func attribute(_ name: StaticString, _ value: Int) {
        openAttribute(name)
        text(value)
        append(UInt8(ascii: "\""))
    }
}
