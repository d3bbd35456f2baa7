import Logging
import MicroHTTP

/// The access log in ``LineLogHandler``'s format, written from each request's summary.
///
/// The line is the one `LineLogHandler` prints for the server's `info` event — same fields, same
/// sorted order, same quoting — without the `Logger.Metadata` dictionary that event costs per
/// request. Metadata attached to the server's logger is not added to access lines.
public struct LineAccessLog: AccessLogWriter {
    private let label: String
    private let format: LineLogHandler.Format

    /// An access log for the logger named `label`, in `format`.
    public init(label: String, format: LineLogHandler.Format) {
        self.label = label
        self.format = format
    }

    public func write(_ summary: RequestSummary) {
        // One write(2) for many requests: see StandardOutput.
        StandardOutput.shared.write(line(for: summary), deferred: true)
    }

    /// The line for `summary`: fields in key order, as the log handler sorts them.
    func line(for summary: RequestSummary) -> [UInt8] {
        var line = LogLine(format: format, level: Logger.Level.info.rawValue, message: summary.accessLogMessage, label: label)
        line.field("bytes", summary.bytesSent)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: RequestSummary.millisecondsCapacity) { buffer in
            let count = summary.writeDurationMilliseconds(into: buffer)
            line.field("duration_ms", plain: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
        line.field("method", summary.method.rawValue)
        if let outcome = summary.outcomeName { line.field("outcome", outcome) }
        line.field("path", summary.path)
        line.field("request_id", summary.requestID)
        if let route = summary.route { line.field("route", route) }
        line.field("status", summary.status?.code ?? 0)
        return line.finish()
    }
}
