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
        let timestamp = Self.timestamp()
        var line = ""
        switch format {
        case .logfmt:
            line = "ts=\(timestamp) level=\(event.level) msg=\(Self.logfmtValue(event.message.description))"
            for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
                line += " \(key)=\(Self.logfmtValue(value.description))"
            }
        case .json:
            var json = JSONWriter()
            json.raw("{")
            json.key("ts")
            json.string(timestamp)
            json.raw(",")
            json.key("level")
            json.string(event.level.rawValue)
            json.raw(",")
            json.key("msg")
            json.string(event.message.description)
            json.raw(",")
            json.key("logger")
            json.string(label)
            for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
                json.raw(",")
                json.key(key)
                json.string(value.description)
            }
            json.raw("}")
            line = String(decoding: json.bytes, as: UTF8.self)
        }
        Self.output.write(line + "\n")
    }

    /// `2026-11-22T02:24:32.522Z`, from the clock and `gmtime_r`: an access log writes one per
    /// request, and Foundation's formatter costs more than serving a small response.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(now.tv_nsec / 1_000_000), 3))Z"
    }

    static func logfmtValue(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "=" && $0 != "\\" && $0.value != 0x7F }
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
}

/// Serialises writes to standard output so lines from worker threads never interleave.
private final class OutputLock: @unchecked Sendable {
    private let lock = NSLock()

    func write(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
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
