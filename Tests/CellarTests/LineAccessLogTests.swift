import Foundation
import Logging
import MicroHTTP
import Testing

@testable import Cellar

/// The access log written from summaries is the line the log handler prints for the server's event.
@Suite struct LineAccessLogTests {
    static let summaries: [RequestSummary] = [
        RequestSummary(
            method: .get, path: "/people", route: "/people", status: .ok, bytesSent: 24_204, duration: .microseconds(1_250),
            requestID: "a1a1d9c800000009", outcome: .completed),
        RequestSummary(
            method: .head, path: "/no such \"page\"\n=x\\", route: nil, status: .notFound, bytesSent: 0, duration: .nanoseconds(42_000),
            requestID: "00000000000000ff", outcome: .completed),
        RequestSummary(
            method: .get, path: "/big", route: "/big", status: .ok, bytesSent: 1 << 40, duration: .seconds(3),
            requestID: "0123456789abcdef", outcome: .clientDisconnected),
        RequestSummary(
            method: HTTPMethod(rawValue: "PROPFIND"), path: "/", route: nil, status: nil, bytesSent: 0, duration: .zero,
            requestID: "ffffffffffffffff", outcome: .timedOut),
        RequestSummary(
            method: .post, path: "/caf\u{E9}/\u{1F377}", route: "/caf\u{E9}/:id", status: .internalServerError, bytesSent: 7,
            duration: .milliseconds(12), requestID: "0000000000000001", outcome: .failed),
    ]

    @Test(arguments: LineLogHandler.Format.allCases)
    func writesTheLineTheHandlerPrintsForTheServersEvent(format: LineLogHandler.Format) throws {
        let handler = LineLogHandler(label: "cellar", format: format, level: .info)
        let accessLog = LineAccessLog(label: "cellar", format: format)
        for summary in Self.summaries {
            let event = LogEvent(
                level: .info, message: Logger.Message(stringLiteral: summary.accessLogMessage), metadata: summary.accessLogMetadata,
                source: "MicroHTTP", file: #fileID, function: #function, line: #line)
            let expected = Self.withoutTimestamp(handler.line(for: event))
            let written = Self.withoutTimestamp(accessLog.line(for: summary))
            #expect(written == expected)
            #expect(written.hasSuffix(format == .json ? "}\n" : "\n"))
        }
    }

    @Test func linesAreOneLineAndJSONLinesParse() throws {
        for summary in Self.summaries {
            let logfmt = String(decoding: LineAccessLog(label: "cellar", format: .logfmt).line(for: summary), as: UTF8.self)
            #expect(logfmt.filter { $0 == "\n" }.count == 1 && logfmt.last == "\n")
            #expect(logfmt.contains(" request_id=\(summary.requestID) "))
            let json = LineAccessLog(label: "cellar", format: .json).line(for: summary)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: String])
            #expect(object["path"] == summary.path)
            #expect(object["bytes"] == String(summary.bytesSent))
            #expect(object["outcome"] == summary.outcomeName)
            #expect(object["logger"] == "cellar" && object["level"] == "info")
        }
    }

    @Test func theLineCarriesTheTimeItWasQueuedAt() {
        let time = WallTime(seconds: 1_795_000_000, milliseconds: 7)
        for format in LineLogHandler.Format.allCases {
            let line = String(decoding: LineAccessLog(label: "cellar", format: format).line(for: Self.summaries[0], at: time), as: UTF8.self)
            #expect(line.contains("2026-11-18T11:06:40.007Z"))
        }
    }

    @Test func emptyTextsMakeEmptyFields() {
        let summary = RequestSummary(
            method: HTTPMethod(rawValue: ""), path: "", route: "", status: .ok, bytesSent: 0, duration: .zero, requestID: "", outcome: .completed)
        let time = WallTime(seconds: 0, milliseconds: 0)
        let logfmt = String(decoding: LineAccessLog(label: "", format: .logfmt).line(for: summary, at: time), as: UTF8.self)
        let expected = "ts=1970-01-01T00:00:00.000Z level=info msg=\"  200\" bytes=0 duration_ms=0 method=\"\" path=\"\""
        #expect(logfmt == expected + " request_id=\"\" route=\"\" status=200\n")
        let json = String(decoding: LineAccessLog(label: "", format: .json).line(for: summary, at: time), as: UTF8.self)
        #expect(json.contains("\"logger\":\"\"") && json.contains("\"route\":\"\"") && json.hasSuffix("}\n"))
    }

    /// The line with its timestamp (the only part that depends on the clock) blanked.
    static func withoutTimestamp(_ line: [UInt8]) -> String {
        let text = String(decoding: line, as: UTF8.self)
        return text.replacing(/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]{12}Z/, with: "TS")
    }
}
