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

    /// The bytes of a timestamp: `2026-11-22T04:55:00.123Z`.
    static let timestampCount = 24

    /// `time` as `2026-11-22T04:55:00.123Z`, written as bytes at `out` (``timestampCount`` of
    /// them): every access line has one, and string interpolation or Foundation's formatter would
    /// cost more than the rest of the line.
    static func writeTimestamp(_ time: WallTime, into out: UnsafeMutablePointer<UInt8>) {
        writeTimestamp(seconds: time.seconds, milliseconds: time.milliseconds, into: out)
    }

    /// `seconds` since 1970 (UTC) and `milliseconds` as `2026-11-22T04:55:00.123Z`: the date by
    /// arithmetic (Howard Hinnant's `civil_from_days`), cheaper than asking `gmtime_r` per line.
    static func writeTimestamp(seconds: Int, milliseconds: Int, into out: UnsafeMutablePointer<UInt8>) {
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
        func put(_ value: Int, _ width: Int, at offset: Int) {
            DecimalDigits.write(UInt64(truncatingIfNeeded: value), width: width, into: out + offset)
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
    }
}
