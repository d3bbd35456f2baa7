import Testing

@testable import MicroHTTP

/// What an access line says about a request: its message, its duration and its outcome.
@Suite struct RequestSummaryTests {
    static func summary(_ duration: Duration, outcome: RequestSummary.Outcome = .completed) -> RequestSummary {
        RequestSummary(
            method: .get, path: "/people", route: "/people", status: .ok, bytesSent: 1, duration: duration, requestID: "0", outcome: outcome)
    }

    @Test(arguments: [
        (Duration.zero, "0"), (.nanoseconds(999), "0"), (.microseconds(1), "0.001"), (.microseconds(42), "0.042"),
        (.microseconds(100), "0.1"), (.microseconds(1_010), "1.01"), (.microseconds(1_001), "1.001"), (.microseconds(1_250), "1.25"),
        (.milliseconds(3), "3"), (.milliseconds(12), "12"), (.seconds(3), "3000"), (.microseconds(123_456_789), "123456.789"),
        (.seconds(1_000_000), "1000000000"), (.seconds(-5), "0"),
    ])
    func durationsAreMillisecondsWithUpToThreeDecimals(duration: Duration, expected: String) {
        #expect(Self.summary(duration).durationMilliseconds == expected)
    }

    @Test func theLongestDurationFitsTheBufferAndLongerOnesAreClamped() {
        let longest = Self.summary(.seconds(RequestSummary.maximumLoggedSeconds) + .microseconds(999_999)).durationMilliseconds
        #expect(longest.utf8.count <= RequestSummary.millisecondsCapacity)
        #expect(longest == "\(RequestSummary.maximumLoggedSeconds * 1000 + 999).999")
        #expect(Self.summary(.seconds(Int64.max)).durationMilliseconds == "\(RequestSummary.maximumLoggedSeconds * 1000)")
    }

    @Test(arguments: [
        (HTTPStatus?.some(.ok), "/people", "GET /people 200"), (nil, "/", "GET / 0"), (HTTPStatus(code: 7), "/a b", "GET /a b 7"),
        (HTTPStatus(code: 12_345), "/é\"", "GET /é\" 12345"), (HTTPStatus(code: -3), "/x", "GET /x -3"),
    ])
    func messagesSpellMethodPathAndStatus(status: HTTPStatus?, path: String, expected: String) {
        let summary = RequestSummary(
            method: .get, path: path, route: nil, status: status, bytesSent: 0, duration: .zero, requestID: "0", outcome: .completed)
        #expect(summary.accessLogMessage == expected)
    }

    @Test func requestIDsAreSixteenHexDigitsWithOneProcessPrefix() {
        let ids = (0..<1000).map { _ in RequestID.next() }
        for id in ids {
            #expect(id.utf8.count == 16)
            #expect(
                id.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
            #expect(id.prefix(8) == ids[0].prefix(8))
        }
        #expect(Set(ids).count == ids.count)
        // Other suites take ids concurrently: this thread's own ids still count upwards.
        let counters = ids.map { UInt32($0.suffix(8), radix: 16) ?? 0 }
        #expect(zip(counters, counters.dropFirst()).allSatisfy { $1 > $0 })
    }

    @Test func messageAndOutcome() {
        #expect(Self.summary(.zero).accessLogMessage == "GET /people 200")
        #expect(Self.summary(.zero).outcomeName == nil)
        #expect(Self.summary(.zero, outcome: .clientDisconnected).outcomeName == "clientDisconnected")
        #expect(Self.summary(.zero, outcome: .timedOut).accessLogMetadata["outcome"] == "timedOut")
    }
}
