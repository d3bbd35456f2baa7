import ByteWriters
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One log line in ``LineLogHandler``'s formats, built as bytes: the timestamp, level, message
/// (and logger label in JSON), then the fields in the order they are added.
///
/// logfmt: `ts=2026-11-23T05:30:00.123Z level=info msg="GET /people 200" bytes=24204 …`
/// JSON: `{"ts":"…","level":"info","msg":"…","logger":"cellar","bytes":"24204",…}` — every
/// field value is a string, as swift-log metadata is.
struct LogLine: ~Copyable {
    private var line: JSONWriter
    private let format: LineLogHandler.Format

    /// Starts a line with `message`.
    init(format: LineLogHandler.Format, level: String, message: String, label: String) {
        self.init(format: format, level: level, label: label, appendingTo: JSONWriter()) { line, format in
            switch format {
            case .logfmt: LineLogHandler.appendLogfmtValue(message, to: &line)
            case .json: line.string(message)
            }
        }
    }

    /// Starts a line at the end of `writer`, which ``finishWriting()`` gives back, stamped with
    /// `time`. `writeMessage` appends the message as a value of the format (quoted and escaped).
    init(
        format: LineLogHandler.Format, level: String, label: String, time: WallTime = .now(), appendingTo writer: consuming JSONWriter,
        message writeMessage: (inout JSONWriter, LineLogHandler.Format) -> Void
    ) {
        line = writer
        self.format = format
        switch format {
        case .logfmt:
            line.raw("ts=")
            LineLogHandler.writeTimestamp(time, into: &line)
            line.raw(" level=")
            line.unquoted(level)
            line.raw(" msg=")
            writeMessage(&line, format)
        case .json:
            line.raw("{\"ts\":\"")
            LineLogHandler.writeTimestamp(time, into: &line)
            line.raw("\",")
            line.key("level")
            line.string(level)
            line.raw(",")
            line.key("msg")
            writeMessage(&line, format)
            line.raw(",")
            line.key("logger")
            line.string(label)
        }
    }

    /// Adds `key=value` (logfmt, the value quoted when it needs to be) or `,"key":"value"` (JSON).
    mutating func field(_ key: StaticString, _ value: String) {
        startField(key)
        writeText(value)
    }

    /// ``field(_:_:)`` for a value given as UTF-8 bytes.
    mutating func field(_ key: StaticString, utf8 value: UnsafeBufferPointer<UInt8>) {
        startField(key)
        switch format {
        case .logfmt: LineLogHandler.appendLogfmtValue(utf8: value, to: &line)
        case .json: line.string(utf8: value)
        }
    }

    /// ``field(_:_:)`` for a key known only at run time (metadata).
    mutating func field(named key: String, _ value: String) {
        switch format {
        case .logfmt:
            line.raw(" ")
            line.unquoted(key)
            line.raw("=")
        case .json:
            line.raw(",")
            line.key(key)
        }
        writeText(value)
    }

    /// Adds a field whose value is a decimal integer, written without making a string.
    mutating func field(_ key: StaticString, _ value: Int) {
        startField(key)
        if format == .json { line.raw("\"") }
        line.number(value)
        if format == .json { line.raw("\"") }
    }

    /// Adds a field whose value is already plain text bytes (digits, a decimal point), unquoted.
    mutating func field(_ key: StaticString, plain value: UnsafeBufferPointer<UInt8>) {
        startField(key)
        if format == .json { line.raw("\"") }
        line.unquoted(bytes: value)
        if format == .json { line.raw("\"") }
    }

    /// What comes before a field's value: ` key=` (logfmt) or `,"key":` (JSON).
    private mutating func startField(_ key: StaticString) {
        switch format {
        case .logfmt:
            line.raw(" ")
            line.raw(key)
            line.raw("=")
        case .json:
            line.raw(",")
            line.key(key)
        }
    }

    /// A text value as the format writes it: logfmt quoted when it needs to be, a JSON string.
    private mutating func writeText(_ value: String) {
        switch format {
        case .logfmt: LineLogHandler.appendLogfmtValue(value, to: &line)
        case .json: line.string(value)
        }
    }

    /// The line, with its ending.
    consuming func finish() -> [UInt8] {
        var writer = finishWriting()
        return writer.takeBytes()
    }

    /// Ends the line and gives back the writer it was written into.
    consuming func finishWriting() -> JSONWriter {
        if format == .json { line.raw("}") }
        line.raw("\n")
        return line
    }
}

/// A moment of the wall clock, to the millisecond, as log lines stamp it.
struct WallTime: Sendable, Equatable {
    /// Seconds since 1970-01-01 (UTC).
    var seconds: Int
    /// Milliseconds into that second.
    var milliseconds: Int

    /// Now.
    static func now() -> WallTime {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return WallTime(seconds: Int(now.tv_sec), milliseconds: Int(now.tv_nsec / 1_000_000))
    }
}
