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
///
/// A line is written by the writer of its format, exactly one of `logfmt` and `json`.
struct LogLine: ~Copyable {
    private var logfmt: LogfmtWriter?
    private var json: JSONWriter?
    private let label: String

    /// Starts a line with `message`.
    init(format: LineLogHandler.Format, level: String, message: String, label: String) {
        self.init(format: format, level: level, label: label)
        self.message(message)
    }

    /// Starts a line at the end of `buffer`, which ``finishWriting()`` gives back, stamped with
    /// `time`; ``message(utf8:)`` goes on with its message.
    init(
        format: LineLogHandler.Format, level: String, label: String, time: WallTime = .now(), appendingTo buffer: consuming ByteBuffer = ByteBuffer()
    ) {
        self.label = label
        switch format {
        case .logfmt:
            logfmt = LogfmtWriter(buffer: buffer)
            json = nil
            logfmt!.raw("ts=")
            Self.withTimestamp(time) { logfmt!.unsafeRaw(bytes: $0) }
            logfmt!.raw(" level=")
            logfmt!.unsafeRaw(level)
            logfmt!.raw(" msg=")
        case .json:
            logfmt = nil
            json = JSONWriter(buffer: buffer)
            json!.raw("{\"ts\":\"")
            Self.withTimestamp(time) { json!.unsafeRaw(bytes: $0) }
            json!.raw("\",")
            json!.key("level")
            json!.string(level)
            json!.member("msg")
        }
    }

    private static func withTimestamp(_ time: WallTime, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: LineLogHandler.timestampCount) { out in
            LineLogHandler.writeTimestamp(time, into: out.baseAddress!)
            body(UnsafeBufferPointer(out))
        }
    }

    /// The message, once, right after the start.
    mutating func message(_ text: String) {
        if logfmt != nil { logfmt!.value(text) } else { json!.string(text) }
        endMessage()
    }

    /// ``message(_:)`` for a message given as UTF-8 bytes.
    mutating func message(utf8 text: UnsafeBufferPointer<UInt8>) {
        if logfmt != nil { logfmt!.value(utf8: text) } else { json!.string(utf8: text) }
        endMessage()
    }

    /// JSON names the logger after the message.
    private mutating func endMessage() {
        guard json != nil else { return }
        json!.member("logger", label)
    }

    /// Adds `key=value` (logfmt, the value quoted when it needs to be) or `,"key":"value"` (JSON).
    mutating func field(_ key: StaticString, _ value: String) {
        startField(key)
        if logfmt != nil { logfmt!.value(value) } else { json!.string(value) }
    }

    /// ``field(_:_:)`` for a value given as UTF-8 bytes.
    mutating func field(_ key: StaticString, utf8 value: UnsafeBufferPointer<UInt8>) {
        startField(key)
        if logfmt != nil { logfmt!.value(utf8: value) } else { json!.string(utf8: value) }
    }

    /// ``field(_:_:)`` for a key known only at run time (metadata).
    mutating func field(named key: String, _ value: String) {
        if logfmt != nil {
            logfmt!.raw(" ")
            logfmt!.unsafeRaw(key)
            logfmt!.raw("=")
            logfmt!.value(value)
        } else {
            json!.raw(",")
            json!.key(key)
            json!.string(value)
        }
    }

    /// Adds a field whose value is a decimal integer, written without making a string.
    mutating func field(_ key: StaticString, _ value: Int) {
        startField(key)
        if logfmt != nil {
            logfmt!.number(value)
        } else {
            json!.raw("\"")
            json!.number(value)
            json!.raw("\"")
        }
    }

    /// Adds a field whose value is already plain text bytes (digits, a decimal point), unquoted.
    mutating func field(_ key: StaticString, plain value: UnsafeBufferPointer<UInt8>) {
        startField(key)
        if logfmt != nil {
            logfmt!.unsafeRaw(bytes: value)
        } else {
            json!.raw("\"")
            json!.unsafeRaw(bytes: value)
            json!.raw("\"")
        }
    }

    /// What comes before a field's value: ` key=` (logfmt) or `,"key":` (JSON).
    private mutating func startField(_ key: StaticString) {
        if logfmt != nil {
            logfmt!.raw(" ")
            logfmt!.raw(key)
            logfmt!.raw("=")
        } else {
            json!.member(key)
        }
    }

    /// The line, with its ending.
    consuming func finish() -> [UInt8] {
        var buffer = finishWriting()
        return buffer.takeBytes()
    }

    /// Ends the line and gives back the buffer it was written into.
    consuming func finishWriting() -> ByteBuffer {
        if json != nil {
            json!.raw("}\n")
            return json!.takeBuffer()
        }
        logfmt!.raw("\n")
        return logfmt!.takeBuffer()
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
