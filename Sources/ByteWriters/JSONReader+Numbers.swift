extension JSONReader {
    /// Reads a number (RFC 8259 §6): an integer when its value is one that `Int64` holds —
    /// whatever its spelling, `1.0` and `1e2` too, as Foundation's decoder read them — else the
    /// nearest `Double`; beyond `Double`'s range, refused.
    public mutating func readNumber() throws(Failure) -> Number {
        skipWhitespace()
        let start = index
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // The integer part: 0, or digits not starting with 0.
        let integerDigits = index
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure(.syntax) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        let integerEnd = index
        var fractionEnd = index
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure(.syntax) }
            skipDigits()
            fractionEnd = index
        }
        var exponent = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure(.syntax) }
            while index < bytes.count, isDigit(bytes[index]) {
                // Past a million the value is 0 or out of range whatever the digits: stop counting.
                exponent = min(exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let fractionDigits = fractionEnd == integerEnd ? integerEnd..<integerEnd : integerEnd + 1..<fractionEnd
        if let integer = exactInteger(
            integerDigits: integerDigits..<integerEnd, fractionDigits: fractionDigits, exponent: exponent, negative: negative)
        {
            return .integer(integer)
        }
        guard let real = Double(String(decoding: bytes[start..<index], as: UTF8.self)), real.isFinite else {
            throw Failure(reason: .numberOutOfRange, offset: start)
        }
        return .real(real)
    }

    /// Reads a number as ``readNumber()`` does, and its text as the document writes it (`1.50`,
    /// `12345678901234567890.123456789`): for a reader that keeps every digit.
    public mutating func readNumberAndText() throws(Failure) -> (number: Number, text: String) {
        skipWhitespace()
        let start = index
        let number = try readNumber()
        return (number, String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    /// The number's value when it is an integer `Int64` holds: its digits (the fraction's after
    /// the integer's) from the first nonzero one to the last, then as many zeros as the exponent
    /// leaves after the point — none may be missing.
    private func exactInteger(integerDigits: Range<Int>, fractionDigits: Range<Int>, exponent: Int, negative: Bool) -> Int64? {
        let count = integerDigits.count + fractionDigits.count
        func digit(_ position: Int) -> Int64 {
            let byte =
                position < integerDigits.count
                ? bytes[integerDigits.lowerBound + position] : bytes[fractionDigits.lowerBound + position - integerDigits.count]
            return Int64(byte - UInt8(ascii: "0"))
        }
        guard let first = (0..<count).first(where: { digit($0) != 0 }) else { return 0 }
        let last = (first..<count).last(where: { digit($0) != 0 }) ?? first
        let zeros = exponent - fractionDigits.count + (count - 1 - last)
        // A nonzero digit after the point, or more digits than Int64 has (19): not one.
        guard zeros >= 0, last - first + 1 + zeros <= 19 else { return nil }
        // Accumulated negative, so that Int64.min is reached too.
        var value: Int64 = 0
        for position in first..<(last + 1 + zeros) {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, borrow) = shifted.subtractingReportingOverflow(position <= last ? digit(position) : 0)
            guard !overflow, !borrow else { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }
}
