/// One message of a Server-Sent Events stream, as the WHATWG HTML standard frames it
/// (§9.2 "Server-sent events"): optional `event:`, `id:` and `retry:` fields, then the data, one
/// `data:` line per line of it, and a blank line that dispatches it.
///
/// ```swift
/// let event = ServerSentEvent(data: "first line\nsecond line", id: "42", event: "update")
/// // event: update
/// // id: 42
/// // data: first line
/// // data: second line
/// //
/// ```
///
/// The data may hold any text: it is split at CR LF, CR and LF, the line breaks the standard
/// recognises, and the browser joins the lines again with LF. An `id` or `event` name cannot hold a
/// line break (nor an id a NUL, which makes browsers ignore it): such characters are written as
/// U+FFFD, so that no value can start a field of its own.
public struct ServerSentEvent: Sendable, Equatable {
    /// The message's data; the browser's `MessageEvent.data`.
    public var data: String
    /// The event id the browser remembers and sends back as `Last-Event-ID` when it reconnects.
    public var id: String?
    /// The event type; nil for an ordinary `message` (Turbo and `EventSource.onmessage` read only those).
    public var event: String?
    /// How long the browser should wait before reconnecting after the stream ends, sent in whole milliseconds.
    public var retry: Duration?

    /// Creates a message.
    public init(data: String, id: String? = nil, event: String? = nil, retry: Duration? = nil) {
        self.data = data
        self.id = id
        self.event = event
        self.retry = retry
    }

    /// The message's bytes on the wire, ending with the blank line that dispatches it.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.utf8.count + 16)
        encode(into: &bytes)
        return bytes
    }

    /// Appends the message's bytes to `bytes`.
    public func encode(into bytes: inout [UInt8]) {
        if let event { Self.appendField("event", event, forbiddingNUL: false, to: &bytes) }
        if let id { Self.appendField("id", id, forbiddingNUL: true, to: &bytes) }
        if let retry {
            let milliseconds = max(0, retry.components.seconds * 1000 + retry.components.attoseconds / 1_000_000_000_000_000)
            bytes.append(contentsOf: "retry: \(milliseconds)\n".utf8)
        }
        Self.appendLines(prefix: "data: ", of: data, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// A comment: lines starting with `:`, which the browser ignores (heartbeats, padding, notes for a person reading the stream).
    public static func comment(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        appendLines(prefix: ": ", of: text, to: &bytes)
        return bytes
    }

    /// `prefix` and each line of `text` (split at CR LF, CR and LF), each ended with LF.
    private static func appendLines(prefix: StaticString, of text: String, to bytes: inout [UInt8]) {
        let prefixBytes = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        bytes.append(contentsOf: prefixBytes)
        var afterCR = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\r"):
                bytes.append(UInt8(ascii: "\n"))
                bytes.append(contentsOf: prefixBytes)
                afterCR = true
                continue
            case UInt8(ascii: "\n"):
                if !afterCR {
                    bytes.append(UInt8(ascii: "\n"))
                    bytes.append(contentsOf: prefixBytes)
                }
            default:
                bytes.append(byte)
            }
            afterCR = false
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// `name: value` and LF, with CR, LF (and NUL when `forbiddingNUL`) written as U+FFFD.
    private static func appendField(_ name: StaticString, _ value: String, forbiddingNUL: Bool, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: ": ".utf8)
        for byte in value.utf8 {
            if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") || (forbiddingNUL && byte == 0) {
                bytes.append(contentsOf: [0xEF, 0xBF, 0xBD])
            } else {
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\n"))
    }
}
