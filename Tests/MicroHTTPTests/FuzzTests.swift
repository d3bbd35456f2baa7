import MicroHTTP
import Testing

/// Deterministic random inputs through the pure parsers: they must never crash, and what they accept must be safe.
@Suite struct FuzzTests {
    /// SplitMix64, so failures reproduce.
    struct Generator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Bytes biased towards the characters that matter to the parsers.
    static func input(_ generator: inout Generator, alphabet: [UInt8]) -> [UInt8] {
        let length = Int.random(in: 0...40, using: &generator)
        return (0..<length).map { _ in
            Bool.random(using: &generator) ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
        }
    }

    @Test func queryParserNeverCrashesAndAcceptsOnlyValidEscapes() {
        var generator = Generator(state: 42)
        let alphabet = Array("%&=+a0fFzZ/?#;é".utf8)
        for _ in 0..<20_000 {
            let bytes = Self.input(&generator, alphabet: alphabet)
            if let query = try? QueryItems(parsing: bytes) {
                for item in query {
                    #expect(!item.name.contains("&"))
                }
                // What was accepted re-encodes to something that parses to the same items.
                #expect((try? QueryItems(parsing: query.percentEncoded)) == query)
            }
        }
    }

    @Test func staticPathResolverAcceptsOnlySafeSegments() {
        var generator = Generator(state: 7)
        let alphabet = Array("./\\%2eEfF5c0a".utf8)
        for _ in 0..<20_000 {
            let path = String(decoding: Self.input(&generator, alphabet: alphabet), as: UTF8.self)
            guard let segments = try? StaticFiles.resolve(path) else { continue }
            for segment in segments {
                #expect(!segment.isEmpty && !segment.hasPrefix(".") && !segment.contains("/") && !segment.contains("\\"))
                #expect(!segment.utf8.contains(0))
                #expect(!segment.lowercased().contains("%2e") && !segment.lowercased().contains("%2f") && !segment.lowercased().contains("%5c"))
            }
        }
    }
}
