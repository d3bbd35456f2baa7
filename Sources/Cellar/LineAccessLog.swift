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
        // One write(2) for many requests (see StandardOutput), and the line written straight
        // into what is waiting to be written: no array per line.
        StandardOutput.shared.write(deferred: true) { pending in write(summary, into: &pending) }
    }

    /// The line for `summary`.
    func line(for summary: RequestSummary) -> [UInt8] {
        var writer = JSONWriter()
        write(summary, into: &writer)
        return writer.takeBytes()
    }

    /// Appends the line for `summary` to `writer`: fields in key order, as the log handler sorts them.
    func write(_ summary: RequestSummary, into writer: inout JSONWriter) {
        // The message quoted from bytes on the stack: no string made for it.
        var line = LogLine(format: format, level: Logger.Level.info.rawValue, label: label, appendingTo: writer) { line, format in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: summary.accessLogMessageCapacity) { buffer in
                let message = UnsafeBufferPointer(rebasing: buffer[..<summary.writeAccessLogMessage(into: buffer)])
                switch format {
                case .logfmt: LineLogHandler.appendLogfmtValue(utf8: message, to: &line)
                case .json: line.string(utf8: message)
                }
            }
        }
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
        writer = line.finishWriting()
    }
}
