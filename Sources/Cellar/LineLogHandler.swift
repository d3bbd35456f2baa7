import ByteWriters
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// One line per log event on standard output, as logfmt (`ts=… level=info msg="…" key=value`)
/// or JSON — what log shippers in front of a container expect.
public struct LineLogHandler: LogHandler {
    public enum Format: String, Sendable, CaseIterable {
        case logfmt
        case json
    }

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let format: Format

    public init(label: String, format: Format, level: Logger.Level) {
        self.label = label
        self.format = format
        logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        StandardOutput.shared.write(line(for: event), deferred: false)
    }

    /// The line `log(event:)` writes.
    func line(for event: LogEvent) -> [UInt8] {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        // Fields in a stable order: keys sorted, as readers of logfmt and JSON lines expect.
        var line = LogLine(format: format, level: event.level.rawValue, message: event.message.description, label: label)
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) { line.field(named: key, value.description) }
        return line.finish()
    }

    /// A logfmt value: bare when it is plain, quoted with `\"`, `\\`, `\n`, `\r`, `\t` and
    /// `\u{…}` escapes otherwise. Works on the UTF-8 bytes: every byte of a multi-byte character
    /// is ≥ 0x80 and passes through as it is, except the characters the JSON writer escapes although
    /// JSON allows them (``JSONWriter/escapedAfterE2(_:_:)``): the bidirectional controls
    /// U+202A–U+202E and U+2066–U+2069, which would show the rest of the line in another order
    /// than it was logged, and U+2028 and U+2029, which some viewers take for line ends. They are
    /// written `\u{202e}`.
    static func appendLogfmtValue(_ value: String, to line: inout JSONWriter) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { appendLogfmtValue(utf8: $0, to: &line) }
        if done == nil {
            var value = value
            value.withUTF8 { appendLogfmtValue(utf8: $0, to: &line) }
        }
    }

    /// ``appendLogfmtValue(_:to:)`` for a value given as UTF-8 bytes.
    static func appendLogfmtValue(utf8 bytes: UnsafeBufferPointer<UInt8>, to line: inout JSONWriter) {
        // One pass: a byte that needs quoting, or the start of a character that is escaped.
        let plain =
            !bytes.isEmpty
            && !bytes.indices.contains { index in
                let byte = bytes[index]
                return byte <= 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "\\") || byte == 0x7F
                    || escapedUnit(in: bytes, at: index) != nil
            }
        if plain {
            line.unquoted(bytes: bytes)
            return
        }
        line.raw("\"")
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let unit = escapedUnit(in: bytes, at: index)
            guard unit != nil || byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else {
                index += 1
                continue
            }
            line.unquoted(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            switch byte {
            case UInt8(ascii: "\""): line.raw("\\\"")
            case UInt8(ascii: "\\"): line.raw("\\\\")
            case UInt8(ascii: "\n"): line.raw("\\n")
            case UInt8(ascii: "\r"): line.raw("\\r")
            case UInt8(ascii: "\t"): line.raw("\\t")
            default:
                line.raw("\\u{")
                line.unquoted(String(unit ?? UInt16(byte), radix: 16))
                line.raw("}")
            }
            index += unit == nil ? 1 : 3
            runStart = index
        }
        line.unquoted(bytes: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        line.raw("\"")
    }

    /// The character at `index` when it is one of those ``appendLogfmtValue(utf8:to:)`` escapes
    /// although it is not ASCII.
    @inline(__always) private static func escapedUnit(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16? {
        guard bytes[index] == 0xE2, index + 2 < bytes.count else { return nil }
        return JSONWriter.escapedAfterE2(bytes[index + 1], bytes[index + 2])
    }

    /// ``appendLogfmtValue(_:to:)`` as a string.
    static func logfmtValue(_ value: String) -> String {
        var line = JSONWriter()
        appendLogfmtValue(value, to: &line)
        return String(decoding: line.takeBytes(), as: UTF8.self)
    }

    /// `time` (the current time by default) as `2026-11-22T04:55:00.123Z`, written as bytes:
    /// every access line has one, and string interpolation or Foundation's formatter would cost
    /// more than the rest of the line.
    static func writeTimestamp(_ time: WallTime = .now(), into line: inout JSONWriter) {
        writeTimestamp(seconds: time.seconds, milliseconds: time.milliseconds, into: &line)
    }

    /// `seconds` since 1970 (UTC) and `milliseconds` as `2026-11-22T04:55:00.123Z`: the date by
    /// arithmetic (Howard Hinnant's `civil_from_days`), cheaper than asking `gmtime_r` per line.
    static func writeTimestamp(seconds: Int, milliseconds: Int, into line: inout JSONWriter) {
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let shifted = day + 719_468  // days from 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { out in
            func put(_ value: Int, _ width: Int, at offset: Int) {
                var value = value
                for position in stride(from: offset + width - 1, through: offset, by: -1) {
                    out[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
                    value /= 10
                }
            }
            put(year, 4, at: 0)
            out[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            out[7] = UInt8(ascii: "-")
            put(dayOfMonth, 2, at: 8)
            out[10] = UInt8(ascii: "T")
            put(second / 3_600, 2, at: 11)
            out[13] = UInt8(ascii: ":")
            put(second / 60 % 60, 2, at: 14)
            out[16] = UInt8(ascii: ":")
            put(second % 60, 2, at: 17)
            out[19] = UInt8(ascii: ".")
            put(milliseconds, 3, at: 20)
            out[23] = UInt8(ascii: "Z")
            line.unquoted(bytes: UnsafeBufferPointer(out))
        }
    }

}
