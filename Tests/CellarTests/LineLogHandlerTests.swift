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

    @Test func logfmtValuesAreQuotedOnlyWhenNeeded() {
        #expect(LineLogHandler.logfmtValue("/people") == "/people")
        #expect(LineLogHandler.logfmtValue("GET /people 200") == "\"GET /people 200\"")
        #expect(LineLogHandler.logfmtValue("a\"b\n") == "\"a\\\"b\\n\"")
        #expect(LineLogHandler.logfmtValue("") == "\"\"")
        #expect(LineLogHandler.logfmtValue("caf\u{E9}/\u{1F377}") == "caf\u{E9}/\u{1F377}")
        #expect(LineLogHandler.logfmtValue("a\u{1}\t\r\\b\u{7F} \u{E9}") == "\"a\\u{1}\\t\\r\\\\b\\u{7f} \u{E9}\"")
        #expect(LineLogHandler.logfmtValue("k=v") == "\"k=v\"")
    }
}
