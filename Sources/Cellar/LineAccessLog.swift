import ByteWriters
import Logging
import MicroHTTP
import TableKit

/// The access log in ``LineLogHandler``'s format, written from each request's summary.
///
/// The line is the one `LineLogHandler` prints for the server's `info` event — same fields, same
/// sorted order, same quoting — without the `Logger.Metadata` dictionary that event costs per
/// request. Metadata attached to the server's logger is not added to access lines.
///
/// A request's thread only stamps the time and queues an ``AccessRecord`` in standard output's
/// queue; the thread that writes the queue formats the lines, many at a time (see
/// ``StandardOutput``).
public struct LineAccessLog: AccessLogWriter {
    let label: String
    let format: LineLogHandler.Format

    /// An access log for the logger named `label`, in `format`.
    public init(label: String, format: LineLogHandler.Format) {
        self.label = label
        self.format = format
    }

    public func write(_ summary: RequestSummary) {
        StandardOutput.shared.write(deferred: AccessRecord(summary: summary, time: .now(), label: label, format: format))
    }

    /// The line for `summary`, stamped `time`.
    func line(for summary: RequestSummary, at time: WallTime = .now()) -> [UInt8] {
        var buffer = ByteBuffer()
        AccessRecord(summary: summary, time: time, label: label, format: format).writeLine(into: &buffer)
        return buffer.takeBytes()
    }
}

/// An access line as it waits in standard output's queue: the request's summary, when it was
/// stamped, and the label and format of the log that writes it.
struct AccessRecord: Sendable {
    let summary: RequestSummary
    let time: WallTime
    let label: String
    let format: LineLogHandler.Format

    /// Writes the line to `buffer`: the message (`GET /people 200`), then the fields in key order,
    /// as the log handler sorts them.
    func writeLine(into buffer: inout ByteBuffer) {
        // The label is written only in JSON.
        let label = format == .json ? label : ""
        var line = LogLine(
            format: format, level: Logger.Level.info.rawValue, label: label, time: time, appendingTo: exchange(&buffer, with: ByteBuffer()))
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: summary.accessLogMessageCapacity) { message in
            line.message(utf8: UnsafeBufferPointer(rebasing: message[..<summary.writeAccessLogMessage(into: message)]))
        }
        line.field("bytes", summary.bytesSent)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: RequestSummary.millisecondsCapacity) { buffer in
            let count = summary.writeDurationMilliseconds(into: buffer)
            line.field("duration_ms", plain: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
        line.field("method", summary.method.rawValue)
        if let outcome = summary.outcome.name { line.field("outcome", outcome) }
        line.field("path", summary.path)
        line.field("request_id", summary.requestID)
        if let route = summary.route { line.field("route", route) }
        line.field("status", summary.status?.code ?? 0)
        buffer = line.finishWriting()
    }
}
