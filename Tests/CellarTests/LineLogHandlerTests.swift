import Foundation
import Logging
import Testing

@testable import Cellar

/// The bytes of a log line's timestamp, written without `String` formatting.
@Suite struct LineLogHandlerTests {
    @Test func timestampsAreUTCWithMilliseconds() throws {
        var line = JSONWriter()
        LineLogHandler.writeTimestamp(into: &line)
        let text = String(decoding: line.takeBytes(), as: UTF8.self)
        #expect(text.wholeMatch(of: /20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{3}Z/) != nil, "\(text)")
    }

    /// The date is computed, not asked of `gmtime_r`: the same answer for every day from 1970 to
    /// 2400 (leap days, century years, 2000 and 2100 among them) and for random seconds in between.
    @Test func timestampDatesMatchGmtime() throws {
        var generator = SystemRandomNumberGenerator()
        let everyDay = stride(from: 0, to: 156_000 * 86_400, by: 86_400).map { $0 + 86_399 }
        let randomSeconds = (0..<20_000).map { _ in Int.random(in: 0..<13_000_000_000, using: &generator) }
        for seconds in everyDay + randomSeconds + [0, 951_782_400, 4_107_542_400] {
            var line = JSONWriter()
            LineLogHandler.writeTimestamp(seconds: seconds, milliseconds: seconds % 1_000, into: &line)
            var time = seconds
            var parts = tm()
            gmtime_r(&time, &parts)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour,
                parts.tm_min, parts.tm_sec, seconds % 1_000)
            let written = String(decoding: line.takeBytes(), as: UTF8.self)
            guard written == expected else {
                Issue.record("\(seconds): \(written), gmtime_r says \(expected)")
                return
            }
        }
    }

    @Test func logfmtValuesAreQuotedOnlyWhenNeeded() {
        #expect(LineLogHandler.logfmtValue("/people") == "/people")
        #expect(LineLogHandler.logfmtValue("GET /people 200") == "\"GET /people 200\"")
        #expect(LineLogHandler.logfmtValue("a\"b\n") == "\"a\\\"b\\n\"")
        #expect(LineLogHandler.logfmtValue("") == "\"\"")
        #expect(LineLogHandler.logfmtValue("caf\u{E9}/\u{1F377}") == "caf\u{E9}/\u{1F377}")
        #expect(LineLogHandler.logfmtValue("a\u{1}\t\r\\b\u{7F} \u{E9}") == "\"a\\u{1}\\t\\r\\\\b\\u{7f} \u{E9}\"")
        #expect(LineLogHandler.logfmtValue("k=v") == "\"k=v\"")
    }

    /// Bidirectional controls would make a terminal show the rest of the line reversed or moved:
    /// they are escaped, and the characters around them in the same block are not.
    @Test func logfmtValuesEscapeBidirectionalControls() {
        #expect(LineLogHandler.logfmtValue("\u{202E}gnp.exe") == "\"\\u{202e}gnp.exe\"")
        for scalar in (0x202A...0x202E).map({ Unicode.Scalar($0)! }) + (0x2066...0x2069).map({ Unicode.Scalar($0)! }) + ["\u{2028}", "\u{2029}"] {
            let hex = String(scalar.value, radix: 16)
            #expect(LineLogHandler.logfmtValue("a\(scalar)b") == "\"a\\u{\(hex)}b\"")
        }
        // Neighbours (and other E2 characters: dashes, the euro sign) stay as they are, unquoted.
        for plain in ["a\u{2027}b", "a\u{202F}b", "a\u{2065}b", "a\u{206A}b", "a\u{2014}b\u{20AC}", "\u{E2}"] {
            #expect(LineLogHandler.logfmtValue(plain) == plain)
        }
        // A lone E2 byte at the end of the value (never in a String, but in bytes) is not read past.
        let truncated: [UInt8] = [0x61, 0xE2, 0x80]
        var line = JSONWriter()
        truncated.withUnsafeBufferPointer { LineLogHandler.appendLogfmtValue(utf8: $0, to: &line) }
        #expect(line.takeBytes() == truncated)
    }
}
