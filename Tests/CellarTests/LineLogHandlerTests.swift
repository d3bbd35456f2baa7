import Foundation
import Logging
import Testing

@testable import Cellar

/// The bytes of a log line's timestamp, written without `String` formatting.
@Suite struct LineLogHandlerTests {
    static func timestamp(_ write: (UnsafeMutablePointer<UInt8>) -> Void) -> String {
        String(unsafeUninitializedCapacity: LineLogHandler.timestampCount) { out in
            write(out.baseAddress!)
            return LineLogHandler.timestampCount
        }
    }

    @Test func timestampsAreUTCWithMilliseconds() throws {
        let text = Self.timestamp { LineLogHandler.writeTimestamp(.now(), into: $0) }
        #expect(text.wholeMatch(of: /20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{3}Z/) != nil, "\(text)")
    }

    /// The date is computed, not asked of `gmtime_r`: the same answer for every day from 1970 to
    /// 2400 (leap days, century years, 2000 and 2100 among them) and for random seconds in between.
    @Test func timestampDatesMatchGmtime() throws {
        var generator = SystemRandomNumberGenerator()
        let everyDay = stride(from: 0, to: 156_000 * 86_400, by: 86_400).map { $0 + 86_399 }
        let randomSeconds = (0..<20_000).map { _ in Int.random(in: 0..<13_000_000_000, using: &generator) }
        for seconds in everyDay + randomSeconds + [0, 951_782_400, 4_107_542_400] {
            var time = seconds
            var parts = tm()
            gmtime_r(&time, &parts)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour,
                parts.tm_min, parts.tm_sec, seconds % 1_000)
            let written = Self.timestamp { LineLogHandler.writeTimestamp(seconds: seconds, milliseconds: seconds % 1_000, into: $0) }
            guard written == expected else {
                Issue.record("\(seconds): \(written), gmtime_r says \(expected)")
                return
            }
        }
    }
}
