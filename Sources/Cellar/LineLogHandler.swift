import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging

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
    private static let output = OutputLock()

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
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        // Fields in a stable order: keys sorted, as readers of logfmt and JSON lines expect.
        let fields = merged.sorted { $0.key < $1.key }
        var line = JSONWriter()
        switch format {
        case .logfmt:
            line.raw("ts=")
            Self.writeTimestamp(into: &line)
            line.raw(" level=")
            line.unquoted(event.level.rawValue)
            line.raw(" msg=")
            Self.appendLogfmtValue(event.message.description, to: &line)
            for (key, value) in fields {
                line.raw(" ")
                line.unquoted(key)
                line.raw("=")
                Self.appendLogfmtValue(value.description, to: &line)
            }
        case .json:
            line.raw("{")
            line.key("ts")
            line.raw("\"")
            Self.writeTimestamp(into: &line)
            line.raw("\"")
            line.raw(",")
            line.key("level")
            line.string(event.level.rawValue)
            line.raw(",")
            line.key("msg")
            line.string(event.message.description)
            line.raw(",")
            line.key("logger")
            line.string(label)
            for (key, value) in fields {
                line.raw(",")
                line.key(key)
                line.string(value.description)
            }
            line.raw("}")
        }
        line.raw("\n")
        Self.output.write(line.takeBytes())
    }

    /// A logfmt value: bare when it is plain, quoted with `\"`, `\\`, `\n`, `\r`, `\t` and
    /// `\u{…}` escapes otherwise.
    static func appendLogfmtValue(_ value: String, to line: inout JSONWriter) {
        let plain = !value.isEmpty && value.utf8.allSatisfy { $0 > 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: "\\") && $0 != 0x7F }
        if plain {
            line.unquoted(value)
        } else {
            line.unquoted(logfmtValue(value))
        }
    }

    static func logfmtValue(_ value: String) -> String {
        let plain = !value.isEmpty && value.utf8.allSatisfy { $0 > 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: "\\") && $0 != 0x7F }
        if plain { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    quoted += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }

    /// `2026-11-22T02:24:32.522Z`, from the clock and `gmtime_r`: an access log writes one per
    /// request, and Foundation's formatter costs more than serving a small response.
    /// The current time as `2026-11-22T04:55:00.123Z`, written as bytes (about a hundred
    /// instructions; formatting it through string interpolation cost ten thousand per line).
    static func writeTimestamp(into line: inout JSONWriter) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { out in
            func put(_ value: Int32, _ width: Int, at offset: Int) {
                var value = value
                for position in stride(from: offset + width - 1, through: offset, by: -1) {
                    out[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
                    value /= 10
                }
            }
            put(parts.tm_year + 1900, 4, at: 0)
            out[4] = UInt8(ascii: "-")
            put(parts.tm_mon + 1, 2, at: 5)
            out[7] = UInt8(ascii: "-")
            put(parts.tm_mday, 2, at: 8)
            out[10] = UInt8(ascii: "T")
            put(parts.tm_hour, 2, at: 11)
            out[13] = UInt8(ascii: ":")
            put(parts.tm_min, 2, at: 14)
            out[16] = UInt8(ascii: ":")
            put(parts.tm_sec, 2, at: 17)
            out[19] = UInt8(ascii: ".")
            put(Int32(now.tv_nsec / 1_000_000), 3, at: 20)
            out[23] = UInt8(ascii: "Z")
            line.unquoted(bytes: UnsafeBufferPointer(out))
        }
    }

}

/// Serialises writes to standard output so lines from worker threads never interleave.
private final class OutputLock: @unchecked Sendable {
    private let lock = NSLock()

    func write(_ line: [UInt8]) {
        line.withUnsafeBufferPointer { bytes in
            lock.withLock {
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(STDOUT_FILENO, bytes.baseAddress.unsafelyUnwrapped + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return  // stdout is gone: drop the line rather than fail the request
                    }
                    offset += written
                }
            }
        }
    }
}
