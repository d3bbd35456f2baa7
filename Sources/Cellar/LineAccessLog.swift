import Logging
import MicroHTTP
import TableKit

/// The access log in ``LineLogHandler``'s format, written from each request's summary.
///
/// The line is the one `LineLogHandler` prints for the server's `info` event — same fields, same
/// sorted order, same quoting — without the `Logger.Metadata` dictionary that event costs per
/// request. Metadata attached to the server's logger is not added to access lines.
///
/// A request's thread only stamps the time and copies the summary's values and texts into
/// standard output's queue (an ``AccessRecord``); the thread that writes the queue formats the
/// lines, many at a time (see ``StandardOutput``).
public struct LineAccessLog: AccessLogWriter {
    let label: String
    let format: LineLogHandler.Format

    /// An access log for the logger named `label`, in `format`.
    public init(label: String, format: LineLogHandler.Format) {
        self.label = label
        self.format = format
    }

    public func write(_ summary: RequestSummary) {
        StandardOutput.shared.write(deferred: summary, log: self, time: .now())
    }

    /// The line for `summary`, stamped `time`.
    func line(for summary: RequestSummary, at time: WallTime = .now()) -> [UInt8] {
        var record = ByteBuffer()
        AccessRecord.append(summary, log: self, time: time, to: &record)
        var writer = JSONWriter()
        _ = record.withUnsafeBytes { AccessRecord.writeLine(from: $0, into: &writer) }
        return writer.takeBytes()
    }
}

/// An access line as it waits to be written: the summary's values and the bytes of its texts,
/// copied into the queue's buffer. No reference into the request is kept, so the request's
/// strings are released by its own thread (glibc's per-thread caches stay with the thread that
/// uses them) and queueing a line makes no allocation once the buffer has grown.
///
/// Layout: a ``Header`` (plain values only, stored unaligned), then the label, message (`GET /people 200`), method, path,
/// request id and route, each as many bytes as the header says.
enum AccessRecord {
    struct Header {
        var time: WallTime
        var bytesSent: Int
        var status: Int
        var duration: Duration
        var labelCount: Int32
        var messageCount: Int32
        var methodCount: Int32
        var pathCount: Int32
        var requestIDCount: Int32
        /// -1 when the request matched no route.
        var routeCount: Int32
        var outcome: RequestSummary.Outcome
        var format: LineLogHandler.Format
    }

    /// Appends the record of `summary`, to be written by `log` and stamped `time`, to `buffer`.
    static func append(_ summary: RequestSummary, log: LineAccessLog, time: WallTime, to buffer: inout ByteBuffer) {
        let labelCount = log.label.utf8.count
        let methodCount = summary.method.rawValue.utf8.count
        let pathCount = summary.path.utf8.count
        let requestIDCount = summary.requestID.utf8.count
        let routeCount = summary.route?.utf8.count ?? -1
        let messageCapacity = summary.accessLogMessageCapacity
        let size = MemoryLayout<Header>.size + labelCount + messageCapacity + methodCount + pathCount + requestIDCount + max(routeCount, 0)
        buffer.write(reserving: size) { start in
            var end = start + MemoryLayout<Header>.size
            copy(log.label, to: &end)
            let messageCount = summary.writeAccessLogMessage(into: UnsafeMutableBufferPointer(start: end, count: messageCapacity))
            end += messageCount
            copy(summary.method.rawValue, to: &end)
            copy(summary.path, to: &end)
            copy(summary.requestID, to: &end)
            if let route = summary.route { copy(route, to: &end) }
            let header = Header(
                time: time, bytesSent: summary.bytesSent, status: summary.status?.code ?? 0, duration: summary.duration,
                labelCount: Int32(labelCount), messageCount: Int32(messageCount), methodCount: Int32(methodCount), pathCount: Int32(pathCount),
                requestIDCount: Int32(requestIDCount), routeCount: Int32(routeCount), outcome: summary.outcome, format: log.format)
            UnsafeMutableRawPointer(start).storeBytes(of: header, as: Header.self)
            return end - start
        }
    }

    /// Copies `text`'s bytes to `end` and moves `end` past them.
    private static func copy(_ text: String, to end: inout UnsafeMutablePointer<UInt8>) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return }
            end.update(from: base, count: bytes.count)
            end += bytes.count
        }
        guard copied == nil else { return }
        for byte in text.utf8 {
            end.pointee = byte
            end += 1
        }
    }

    /// Writes the line of the record at the start of `record` to `writer`: fields in key order,
    /// as the log handler sorts them. Returns the record's size.
    static func writeLine(from record: UnsafeRawBufferPointer, into writer: inout JSONWriter) -> Int {
        let header = record.loadUnaligned(as: Header.self)
        var offset = MemoryLayout<Header>.size
        func text(_ count: Int32) -> UnsafeBufferPointer<UInt8> {
            let bytes = UnsafeRawBufferPointer(rebasing: record[offset..<offset + Int(max(count, 0))])
            offset += bytes.count
            return bytes.assumingMemoryBound(to: UInt8.self)
        }
        let label = text(header.labelCount)
        let message = text(header.messageCount)
        let method = text(header.methodCount)
        let path = text(header.pathCount)
        let requestID = text(header.requestIDCount)
        let route = text(header.routeCount)
        // The label is written only in JSON; a short one (as `cellar`) makes no allocation.
        let labelText = header.format == .json ? String(decoding: label, as: UTF8.self) : ""
        var line = LogLine(format: header.format, level: Logger.Level.info.rawValue, label: labelText, time: header.time, appendingTo: writer) {
            line, format in
            switch format {
            case .logfmt: LineLogHandler.appendLogfmtValue(utf8: message, to: &line)
            case .json: line.string(utf8: message)
            }
        }
        line.field("bytes", header.bytesSent)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: RequestSummary.millisecondsCapacity) { buffer in
            let count = RequestSummary.writeMilliseconds(of: header.duration, into: buffer)
            line.field("duration_ms", plain: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
        line.field("method", utf8: method)
        if let outcome = header.outcome.name { line.field("outcome", outcome) }
        line.field("path", utf8: path)
        line.field("request_id", utf8: requestID)
        if header.routeCount >= 0 { line.field("route", utf8: route) }
        line.field("status", header.status)
        writer = line.finishWriting()
        return offset
    }
}
