#if canImport(Glibc)
    import Glibc
#endif

/// A Server-Sent Events client for tests: one connection, one request, then the events as the
/// WHATWG HTML standard's parser reads them (§9.2.6 "Interpreting an event stream").
///
/// It decodes the chunked body itself and hands out events one at a time, so a test can check
/// what has arrived while the stream stays open. Not thread-safe: one client per thread, or one
/// thread reading many clients in turn.
///
/// ```swift
/// let client = try EventStreamClient(port: server.port, target: "/events")
/// #expect(client.status == 200)
/// let event = try client.nextEvent(timeout: .seconds(10))
/// ```
public final class EventStreamClient {
    /// One dispatched event.
    public struct Event: Equatable, Sendable {
        /// The event type (`message` unless the stream named one).
        public var type: String
        /// The data, lines joined with LF.
        public var data: String
        /// The last event id seen when it was dispatched.
        public var lastEventID: String

        public init(type: String = "message", data: String, lastEventID: String = "") {
            self.type = type
            self.data = data
            self.lastEventID = lastEventID
        }
    }

    private let descriptor: Int32
    private var closed = false
    private var raw: [UInt8] = []
    private var rawPosition = 0
    /// The response's status.
    public private(set) var status = 0
    /// The response's header fields.
    public private(set) var headerFields: [(name: String, value: String)] = []
    /// The body of a response that is not chunked (a 503, say), read whole.
    public private(set) var body: [UInt8] = []
    /// Comment lines received so far (heartbeats).
    public private(set) var comments = 0
    /// The last `retry` value received, in milliseconds.
    public private(set) var retry: Int?
    /// Whether the body has ended (the last chunk, or the connection closed).
    public private(set) var ended = false

    // Chunk decoding.
    private var chunkRemaining = 0
    private var inTrailers = false
    // The WHATWG parser's state.
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var dataBuffer = ""
    private var eventType = ""
    private var lastEventID = ""
    private var pending: [Event] = []

    /// Connects (from `sourceAddress` when given, any 127.x.y.z), sends `GET target` with `headers`, and reads the response head.
    public init(
        host: String = "127.0.0.1", port: Int, target: String, headers: [(String, String)] = [], sourceAddress: String? = nil,
        timeout: Duration = .seconds(10), receiveBuffer: Int? = nil
    ) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestHTTPClientError.socketError(errno: errno) }
        if let receiveBuffer {
            var size = Int32(receiveBuffer)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let sourceAddress {
            let bound = withIPv4Address(sourceAddress, port: 0) { bind(descriptor, $0, $1) }
            guard bound == 0 else {
                let code = errno
                Glibc.close(descriptor)
                closed = true
                throw TestHTTPClientError.socketError(errno: code)
            }
        }
        let result = withIPv4Address(host, port: port) { connect(descriptor, $0, $1) }
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            closed = true
            throw TestHTTPClientError.connectFailed(errno: code)
        }
        var headers = headers
        headers.append(("Accept", "text/event-stream"))
        let request = TestHTTPClient.requestBytes("GET", target, headers: headers)
        var sent = 0
        while sent < request.count {
            let count = request.withUnsafeBytes { send(descriptor, $0.baseAddress! + sent, request.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw TestHTTPClientError.socketError(errno: errno) }
            sent += count
        }
        try readHead(deadline: .now + timeout)
    }

    deinit {
        if !closed { Glibc.close(descriptor) }
    }

    /// A header field's value (case-insensitive name).
    public func header(_ name: String) -> String? {
        headerFields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Closes the socket (unread data makes the kernel reset the connection, as when a tab goes away).
    public func close() {
        guard !closed else { return }
        Glibc.close(descriptor)
        closed = true
    }

    /// The next event; nil when the body ended first.
    ///
    /// - Throws: ``TestHTTPClientError/timedOut`` when none arrives within `timeout`.
    public func nextEvent(timeout: Duration) throws -> Event? {
        let deadline = ContinuousClock.now + timeout
        while pending.isEmpty {
            if ended { return nil }
            try receive(deadline: deadline)
        }
        return pending.removeFirst()
    }

    /// Every event until the body ends.
    public func eventsUntilEnd(timeout: Duration) throws -> [Event] {
        var events: [Event] = []
        let deadline = ContinuousClock.now + timeout
        while let event = try nextEvent(timeout: deadline - .now) { events.append(event) }
        return events
    }

    /// Reads until at least `count` comments have arrived in all.
    public func waitForComments(_ count: Int, timeout: Duration) throws {
        let deadline = ContinuousClock.now + timeout
        while comments < count && !ended { try receive(deadline: deadline) }
    }

    // MARK: Reading

    private func receive(deadline: ContinuousClock.Instant) throws {
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let left = deadline - .now
            guard left > .zero else { throw TestHTTPClientError.timedOut }
            var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(1000, max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
            guard poll(&pollDescriptor, 1, milliseconds) > 0 else { continue }
            let count = recv(descriptor, &scratch, scratch.count, 0)
            if count > 0 {
                raw.append(contentsOf: scratch[..<count])
                try decode()
                return
            }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            flushLine()
            ended = true
            return
        }
    }

    private func readHead(deadline: ContinuousClock.Instant) throws {
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let end = headEnd() {
                parseHead(raw[..<end])
                raw.removeSubrange(..<(end + 4))
                break
            }
            let left = deadline - .now
            guard left > .zero else { throw TestHTTPClientError.timedOut }
            var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pollDescriptor, 1, 100) > 0 else { continue }
            let count = recv(descriptor, &scratch, scratch.count, 0)
            guard count > 0 else { throw count == 0 ? TestHTTPClientError.connectionClosed : TestHTTPClientError.socketError(errno: errno) }
            raw.append(contentsOf: scratch[..<count])
        }
        let chunked = header("Transfer-Encoding")?.lowercased().contains("chunked") ?? false
        if !chunked {
            let length = Int(header("Content-Length") ?? "") ?? 0
            while raw.count < length {
                let left = deadline - .now
                guard left > .zero else { throw TestHTTPClientError.timedOut }
                var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&pollDescriptor, 1, 100) > 0 else { continue }
                let count = recv(descriptor, &scratch, scratch.count, 0)
                guard count > 0 else { break }
                raw.append(contentsOf: scratch[..<count])
            }
            body = Array(raw.prefix(length))
            raw = []
            ended = true
            return
        }
        try decode()
    }

    private func headEnd() -> Int? {
        guard raw.count >= 4 else { return nil }
        for index in 0...(raw.count - 4)
        where raw[index] == 13 && raw[index + 1] == 10 && raw[index + 2] == 13 && raw[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func parseHead(_ bytes: ArraySlice<UInt8>) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = lines.first?.split(separator: " ") ?? []
        status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headerFields.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
        }
    }

    /// Decodes the chunks received so far into the event parser.
    private func decode() throws {
        while rawPosition < raw.count && !ended {
            if chunkRemaining > 0 {
                let take = min(chunkRemaining, raw.count - rawPosition)
                for byte in raw[rawPosition..<(rawPosition + take)] { parse(byte) }
                rawPosition += take
                chunkRemaining -= take
                if chunkRemaining == 0 { chunkRemaining = -2 }  // the CRLF after the chunk
                continue
            }
            guard let newline = raw[rawPosition...].firstIndex(of: 10) else { break }
            let sizeLine = String(decoding: raw[rawPosition..<newline], as: UTF8.self).filter { $0 != "\r" }
            rawPosition = newline + 1
            if chunkRemaining == -2 {
                guard sizeLine.isEmpty else { throw TestHTTPClientError.malformedResponse("missing CRLF after a chunk") }
                chunkRemaining = 0
                continue
            }
            if inTrailers {
                if sizeLine.isEmpty {
                    flushLine()
                    ended = true
                }
                continue
            }
            guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
                throw TestHTTPClientError.malformedResponse("chunk size \"\(sizeLine)\"")
            }
            if size == 0 { inTrailers = true } else { chunkRemaining = size }
        }
        raw.removeSubrange(..<rawPosition)
        rawPosition = 0
    }

    /// Feeds one byte of the body to the line splitter (CR LF, LF and CR end a line).
    private func parse(_ byte: UInt8) {
        if byte == 10 && lastWasCR {
            lastWasCR = false
            return
        }
        lastWasCR = byte == 13
        if byte == 10 || byte == 13 {
            processLine(line)
            line.removeAll(keepingCapacity: true)
        } else {
            line.append(byte)
        }
    }

    /// A body that ends mid-line: the standard drops an incomplete event, so only the line is discarded.
    private func flushLine() {
        line.removeAll()
    }

    private func processLine(_ bytes: [UInt8]) {
        if bytes.isEmpty {
            dispatch()
            return
        }
        if bytes.first == UInt8(ascii: ":") {
            comments += 1
            return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "event": eventType = String(value)
        case "data": dataBuffer += value + "\n"
        case "id": if !value.contains("\0") { lastEventID = String(value) }
        case "retry": if !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }) { retry = Int(value) }
        default: break
        }
    }

    private func dispatch() {
        defer {
            dataBuffer = ""
            eventType = ""
        }
        guard !dataBuffer.isEmpty else { return }
        if dataBuffer.last == "\n" { dataBuffer.removeLast() }
        pending.append(Event(type: eventType.isEmpty ? "message" : eventType, data: dataBuffer, lastEventID: lastEventID))
    }
}
