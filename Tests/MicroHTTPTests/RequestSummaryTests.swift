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

    @Test func messageAndOutcome() {
        #expect(Self.summary(.zero).accessLogMessage == "GET /people 200")
        #expect(Self.summary(.zero).outcomeName == nil)
        #expect(Self.summary(.zero, outcome: .clientDisconnected).outcomeName == "clientDisconnected")
        #expect(Self.summary(.zero, outcome: .timedOut).accessLogMetadata["outcome"] == "timedOut")
    }
}
