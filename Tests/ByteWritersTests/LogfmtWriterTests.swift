import ByteWriters
import Testing

/// logfmt values: bare when plain, quoted and escaped otherwise.
@Suite struct LogfmtWriterTests {
    @Test func logfmtValuesAreQuotedOnlyWhenNeeded() {
        #expect(LogfmtWriter.value("/people") == "/people")
        #expect(LogfmtWriter.value("GET /people 200") == "\"GET /people 200\"")
        #expect(LogfmtWriter.value("a\"b\n") == "\"a\\\"b\\n\"")
        #expect(LogfmtWriter.value("") == "\"\"")
        #expect(LogfmtWriter.value("caf\u{E9}/\u{1F377}") == "caf\u{E9}/\u{1F377}")
        #expect(LogfmtWriter.value("a\u{1}\t\r\\b\u{7F} \u{E9}") == "\"a\\u{1}\\t\\r\\\\b\\u{7f} \u{E9}\"")
        #expect(LogfmtWriter.value("k=v") == "\"k=v\"")
    }

    /// Bidirectional controls would make a terminal show the rest of the line reversed or moved:
    /// they are escaped, and the characters around them in the same block are not.
    @Test func logfmtValuesEscapeBidirectionalControls() {
        #expect(LogfmtWriter.value("\u{202E}gnp.exe") == "\"\\u{202e}gnp.exe\"")
        for scalar in (0x202A...0x202E).map({ Unicode.Scalar($0)! }) + (0x2066...0x2069).map({ Unicode.Scalar($0)! }) + ["\u{2028}", "\u{2029}"] {
            let hex = String(scalar.value, radix: 16)
            #expect(LogfmtWriter.value("a\(scalar)b") == "\"a\\u{\(hex)}b\"")
        }
        // Neighbours (and other E2 characters: dashes, the euro sign) stay as they are, unquoted.
        for plain in ["a\u{2027}b", "a\u{202F}b", "a\u{2065}b", "a\u{206A}b", "a\u{2014}b\u{20AC}", "\u{E2}"] {
            #expect(LogfmtWriter.value(plain) == plain)
        }
        // A lone E2 byte at the end of the value (never in a String, but in bytes) is not read past.
        let truncated: [UInt8] = [0x61, 0xE2, 0x80]
        var line = LogfmtWriter()
        truncated.withUnsafeBufferPointer { line.value(utf8: $0) }
        #expect(line.takeBytes() == truncated)
    }
}
