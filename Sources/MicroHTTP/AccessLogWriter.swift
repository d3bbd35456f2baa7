import ByteWriters
import Logging

/// Writes the access log: one line per finished request, from its ``RequestSummary``.
///
/// Without one, a ``Server`` logs each request as an `info` event of its `Logger`, with the
/// summary's fields as metadata (`method`, `path`, `status`, `bytes`, `duration_ms`,
/// `request_id`, `route`, `outcome`). That builds a `Logger.Metadata` dictionary per request; a
/// writer that knows the log's output format writes the same line from the summary directly.
///
/// Called on worker threads, concurrently, and only when the server's logger logs `info`.
public protocol AccessLogWriter: Sendable {
    /// Writes the line for one finished request.
    func write(_ summary: RequestSummary)
}

extension RequestSummary {
    /// The access line's message: `GET /people 200` (status 0 when none was sent).
    public var accessLogMessage: String {
        // Built in place: one allocation, where three concatenations made three.
        String(unsafeUninitializedCapacity: accessLogMessageCapacity) { writeAccessLogMessage(into: $0) }
    }

    /// Bytes enough for ``writeAccessLogMessage(into:)``.
    public var accessLogMessageCapacity: Int { method.rawValue.utf8.count + path.utf8.count + 22 }

    /// Writes ``accessLogMessage`` as UTF-8 into `bytes` (at least ``accessLogMessageCapacity``
    /// of them) and returns how many it wrote: an access log can quote it from there without
    /// making a string.
    public func writeAccessLogMessage(into bytes: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var method = method.rawValue
        var path = path
        let code = status?.code ?? 0
        return method.withUTF8 { method in
            path.withUTF8 { path in
                var end = 0
                for byte in method {
                    bytes[end] = byte
                    end += 1
                }
                bytes[end] = UInt8(ascii: " ")
                end += 1
                for byte in path {
                    bytes[end] = byte
                    end += 1
                }
                bytes[end] = UInt8(ascii: " ")
                end += 1
                // The status code (any Int: a handler may set one outside 100…999).
                return end + DecimalDigits.write(code, into: bytes.baseAddress! + end)
            }
        }
    }

    /// The access line's fields, as the server logs them without an ``AccessLogWriter``.
    public var accessLogMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = [
            "method": .string(method.rawValue), "path": .string(path), "status": .string(String(status?.code ?? 0)),
            "bytes": .string(String(bytesSent)), "duration_ms": .string(durationMilliseconds), "request_id": .string(requestID),
        ]
        if let route { metadata["route"] = .string(route) }
        if let outcomeName { metadata["outcome"] = .string(outcomeName) }
        return metadata
    }

    /// ``duration`` in milliseconds with up to three decimals (`0.042`, `12.5`, `3`), as the
    /// access log's `duration_ms` writes it.
    public var durationMilliseconds: String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.millisecondsCapacity) { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[..<writeDurationMilliseconds(into: buffer)]), as: UTF8.self)
        }
    }

    /// The longest duration written, in seconds: anything longer (no clock gives it) is written as
    /// this, so the microseconds cannot overflow.
    public static let maximumLoggedSeconds: Int64 = (Int64.max - 999_999) / 1_000_000

    /// Room ``writeDurationMilliseconds(into:)`` needs: 19 digits, a point and 3 decimals.
    public static let millisecondsCapacity = 24

    /// Writes ``durationMilliseconds`` into `buffer` (at least ``millisecondsCapacity`` bytes) and
    /// returns its length. Integers only, without `Double.description` or strings: it runs for
    /// every request.
    public func writeDurationMilliseconds(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        Self.writeMilliseconds(of: duration, into: buffer)
    }

    /// Writes `duration` as ``durationMilliseconds`` writes a summary's.
    public static func writeMilliseconds(of duration: Duration, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let components = duration.components
        let seconds = min(max(0, components.seconds), Self.maximumLoggedSeconds)
        let microseconds = seconds * 1_000_000 + max(0, components.attoseconds) / 1_000_000_000_000
        var fraction = microseconds % 1000
        let digits = DecimalDigits.write(UInt64(microseconds / 1000), into: buffer.baseAddress!)
        guard fraction > 0 else { return digits }
        var decimals = 3
        while fraction % 10 == 0 {
            fraction /= 10
            decimals -= 1
        }
        buffer[digits] = UInt8(ascii: ".")
        DecimalDigits.write(UInt64(fraction), width: decimals, into: buffer.baseAddress! + digits + 1)
        return digits + 1 + decimals
    }

    /// The `outcome` field: nil when the request completed (the field is then left out).
    public var outcomeName: String? { outcome.name }
}

extension RequestSummary.Outcome {
    /// The outcome as the access log's `outcome` field writes it: nil for ``completed`` (the
    /// field is then left out).
    public var name: String? {
        switch self {
        case .completed: nil
        case .clientDisconnected: "clientDisconnected"
        case .timedOut: "timedOut"
        case .failed: "failed"
        }
    }
}
