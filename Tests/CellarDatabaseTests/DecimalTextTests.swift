import Testing

@testable import CellarDatabase

/// Reals written as short decimals read back as themselves, and as `Double.description` writes them.
struct DecimalTextTests {
    @Test func everyPriceOfUpToThreePlacesReadsBackAndMatchesTheStandardLibrary() {
        var checked = 0
        for cents in stride(from: -200_000, through: 200_000, by: 7) {
            for divisor in [10.0, 100.0, 1000.0] {
                let real = Double(cents) / divisor
                let text = DecimalText.text(real)
                #expect(Double(text) == real, "\(text)")
                if real != real.rounded() { #expect(text == real.description, "\(real)") }
                checked += 1
            }
        }
        #expect(checked > 100_000)
    }

    @Test(arguments: [0.1 + 0.2, 1.0 / 3, 1e-7, 123_456_789.123_4, 2.5e15, -0.000_1, Double.pi])
    func otherRealsAreLeftToTheStandardLibrary(real: Double) {
        #expect(DecimalText.text(real) == real.description)
    }

    @Test func wholeRealsAndNonFiniteOnesAreNotShortened() {
        for real in [0.0, -0.0, 82.0, 1e300, .infinity, -.infinity, .nan] {
            #expect(
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalText.capacity) { DecimalText.write(real, into: $0.baseAddress!) }
                    == nil)
        }
    }

    @Test func aDecimalIsDigitsWithAPointAndAnExponentAndNothingElse() {
        for text in ["0", "-0", "+5", "12", "1.5", ".5", "5.", "-0.000000001", "1e5", "1E-30", "2.5e+3", "12345678901234567890.123456789"] {
            #expect(DecimalText.isDecimal(text), "\(text)")
        }
        for text in ["", "-", ".", "e5", "1e", "1e+", "1.2.3", "12,5", " 1", "1 ", "NaN", "inf", "Infinity", "0x10", "1_000", "--1", "1e5x", "١٢"] {
            #expect(!DecimalText.isDecimal(text), "\(text)")
        }
    }
}
