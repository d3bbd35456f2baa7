#if canImport(Glibc)
    import Glibc
#endif

/// Why a ``TestHTTPClient`` call failed.
public enum TestHTTPClientError: Error, Equatable, CustomStringConvertible {
    /// `connect` failed with this errno (ECONNREFUSED when nothing listens).
    case connectFailed(errno: Int32)
    /// The peer sent nothing within the read timeout.
    case timedOut
    /// The peer closed the connection before a whole response arrived.
    case connectionClosed
    /// A socket call failed with this errno (e.g. ECONNRESET).
    case socketError(errno: Int32)
    /// The bytes received are not a valid HTTP/1.1 response.
    case malformedResponse(String)

    public var description: String {
        switch self {
        case .connectFailed(let code): "connect failed: \(String(cString: strerror(code)))"
        case .timedOut: "timed out waiting for the server"
        case .connectionClosed: "the server closed the connection"
        case .socketError(let code): "socket error: \(String(cString: strerror(code)))"
        case .malformedResponse(let reason): "malformed response: \(reason)"
        }
    }
}

/// A raw-socket HTTP/1.1 client for tests: it sends exactly the bytes it is given.
///
/// No URL normalisation happens, so hostile targets (`/static/../x`, `%2e%2e`, backslashes)
/// reach the server as written. One client is one TCP connection, reused for several requests
/// (keep-alive) until either side closes it. Not thread-safe: use one client per thread.
///
/// ```swift
/// let client = try TestHTTPClient(port: server.port)
/// let response = try client.request("GET", "/static/../Package.swift")
/// #expect(response.status == 404)
/// ```
public final class TestHTTPClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var position = 0
    /// Whether the server closed the connection (or said `Connection: close`).
    public private(set) var isClosed = false

    /// Connects to `host:port` (an IPv4 literal); `timeout` bounds each read and write.
    public init(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(10)) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestHTTPClientError.socketError(errno: errno) }
        let seconds = timeout.components.seconds
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let result = withIPv4Address(host, port: port) { connect(descriptor, $0, $1) }
        if result != 0 {
            let code = errno
            Glibc.close(descriptor)
            // Every property is initialised, so deinit runs after the throw: it must not close the number again
            // (by then another thread may have been given it, e.g. a server's listening socket).
            descriptorClosed = true
            throw TestHTTPClientError.connectFailed(errno: code)
        }
    }

    private var descriptorClosed = false

    deinit {
        if !descriptorClosed { Glibc.close(descriptor) }
    }

    /// Closes the socket (unread data makes the kernel reset the connection, as when a browser tab goes away).
    public func close() {
        guard !descriptorClosed else { return }
        Glibc.close(descriptor)
        descriptorClosed = true
        isClosed = true
    }

    /// Sends `bytes` exactly as given.
    public func sendRaw(_ bytes: [UInt8]) throws {
        guard !descriptorClosed else { throw TestHTTPClientError.connectionClosed }
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw errno == EAGAIN ? TestHTTPClientError.timedOut : TestHTTPClientError.socketError(errno: errno) }
            sent += count
        }
    }

    /// Sends the UTF-8 bytes of `text` exactly as given (write `\r\n` yourself).
    public func sendRaw(_ text: String) throws {
        try sendRaw(Array(text.utf8))
    }

    /// Sends one request and reads its response.
    ///
    /// Adds `Host: localhost` unless `headers` has a Host, and `Content-Length` when there is a body
    /// and no Content-Length or Transfer-Encoding among `headers`. The target is sent verbatim.
    public func request(_ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws
        -> TestHTTPResponse
    {
        try sendRaw(Self.requestBytes(method, target, headers: headers, body: body))
        return try readResponse(method: method)
    }

    /// Sends one request and hands its body to `onBody` piece by piece instead of keeping it (the returned `body` is empty).
    public func request(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = [],
        onBody: (ArraySlice<UInt8>) throws -> Void
    ) throws -> TestHTTPResponse {
        try sendRaw(Self.requestBytes(method, target, headers: headers, body: body))
        return try readResponse(method: method, onBody: onBody)
    }

    /// The bytes of a request as ``request(_:_:headers:body:)`` sends it.
    public static func requestBytes(_ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        let names = headers.map { $0.0.lowercased() }
        if !names.contains("host") { head += "Host: localhost\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty && !names.contains("content-length") && !names.contains("transfer-encoding") {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// Reads one response (skipping `100 Continue`); pass the request's method so a HEAD response is read without a body.
    public func readResponse(method: String = "GET") throws -> TestHTTPResponse {
        var body: [UInt8] = []
        var response = try readResponse(method: method) { body.append(contentsOf: $0) }
        response.body = body
        return response
    }

    /// Reads one response, handing the body to `onBody` piece by piece instead of keeping it (the returned `body` is empty).
    public func readResponse(method: String = "GET", onBody: (ArraySlice<UInt8>) throws -> Void) throws -> TestHTTPResponse {
        try readResponse(method: method, onHead: { _ in }, onBody: onBody)
    }

    /// Reads one response like ``readResponse(method:onBody:)``, handing its head to `onHead` as soon as it
    /// has arrived: a caller learns the status and headers even when the body is then cut short (and this throws).
    public func readResponse(
        method: String = "GET", onHead: (TestHTTPResponse) throws -> Void, onBody: (ArraySlice<UInt8>) throws -> Void
    ) throws -> TestHTTPResponse {
        var head = try readHead()
        while (100..<200).contains(head.status) && head.status != 101 { head = try readHead() }
        try onHead(head)
        let headers = head.headers
        let connection = headers["Connection"]?.lowercased()
        defer { if connection == "close" { isClosed = true } }
        if method == "HEAD" || head.status == 204 || head.status == 304 { return head }
        if let encoding = headers["Transfer-Encoding"], encoding.lowercased().contains("chunked") {
            try readChunked(onBody)
        } else if let length = headers["Content-Length"] {
            guard let count = Int(length), count >= 0 else { throw TestHTTPClientError.malformedResponse("Content-Length \(length)") }
            try readExactly(count, onBody)
        } else {
            try readUntilClose(onBody)
        }
        return head
    }

    /// Every byte received until the server closes the connection, after what is already buffered.
    ///
    /// - Throws: ``TestHTTPClientError/timedOut`` when it is still open after `timeout`.
    public func readUntilClosed(timeout: Duration) throws -> [UInt8] {
        var received = Array(buffer)
        buffer.removeAll()
        guard !descriptorClosed else { return received }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pollDescriptor, 1, 50) > 0 else { continue }
            var scratch = [UInt8](repeating: 0, count: 65536)
            let count = recv(descriptor, &scratch, scratch.count, 0)
            if count > 0 {
                received += scratch[..<count]
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                isClosed = true
                return received
            }
        }
        throw TestHTTPClientError.timedOut
    }

    /// Waits until the server closes the connection; true if it did within `timeout` (data received meanwhile is discarded).
    public func waitForClose(timeout: Duration) -> Bool {
        guard !descriptorClosed else { return true }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollDescriptor, 1, 50)
            if ready > 0 {
                var scratch = [UInt8](repeating: 0, count: 4096)
                let count = recv(descriptor, &scratch, scratch.count, 0)
                if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) {
                    isClosed = true
                    return true
                }
            }
        }
        return false
    }

    // MARK: Reading

    private func readHead() throws -> TestHTTPResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw TestHTTPClientError.malformedResponse("status line \"\(statusLine)\"")
        }
        var fields: [(name: String, value: String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw TestHTTPClientError.malformedResponse("header line \"\(line)\"") }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            fields.append((String(line[..<colon]), String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed())))
        }
        return TestHTTPResponse(
            version: String(parts[0]), status: status, reason: parts.count > 2 ? String(parts[2]) : "", headerFields: fields, body: [])
    }

    private func readChunked(_ onBody: (ArraySlice<UInt8>) throws -> Void) throws {
        while true {
            let sizeLine = try readLine()
            let sizeText = sizeLine.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(" "), radix: 16), size >= 0 else {
                throw TestHTTPClientError.malformedResponse("chunk size \"\(sizeLine)\"")
            }
            if size == 0 {
                while try !readLine().isEmpty {}  // trailers
                return
            }
            try readExactly(size, onBody)
            guard try readLine().isEmpty else { throw TestHTTPClientError.malformedResponse("missing CRLF after chunk") }
        }
    }

    private func readExactly(_ count: Int, _ onBody: (ArraySlice<UInt8>) throws -> Void) throws {
        var remaining = count
        while remaining > 0 {
            if position == buffer.count { try fill() }
            let take = min(remaining, buffer.count - position)
            try onBody(buffer[position..<(position + take)])
            position += take
            remaining -= take
        }
    }

    private func readUntilClose(_ onBody: (ArraySlice<UInt8>) throws -> Void) throws {
        while true {
            if position < buffer.count {
                try onBody(buffer[position...])
                position = buffer.count
            }
            do { try fill() } catch TestHTTPClientError.connectionClosed { return }
        }
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer[position...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > position && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[position..<end], as: UTF8.self)
                position = newline + 1
                return line
            }
            guard buffer.count - position < 1 << 20 else { throw TestHTTPClientError.malformedResponse("line longer than 1 MiB") }
            try fill()
        }
    }

    /// Reads more bytes into the buffer, compacting it first.
    private func fill() throws {
        guard !descriptorClosed else { throw TestHTTPClientError.connectionClosed }
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return
            }
            if count == 0 {
                isClosed = true
                throw TestHTTPClientError.connectionClosed
            }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw TestHTTPClientError.timedOut }
            isClosed = true
            throw TestHTTPClientError.socketError(errno: errno)
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(_ character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}

extension TestHTTPClient {
    /// Opens a connection, sends one request, reads the response and closes.
    public static func send(
        _ method: String = "GET", _ target: String, port: Int, headers: [(String, String)] = [], body: [UInt8] = [],
        timeout: Duration = .seconds(10)
    ) throws -> TestHTTPResponse {
        let client = try TestHTTPClient(port: port, timeout: timeout)
        defer { client.close() }
        return try client.request(method, target, headers: headers, body: body)
    }
}

/// Calls `body` (`connect`, `bind`) with the socket address of `host:port`, an IPv4 literal, and
/// its length; returns what `body` returns.
func withIPv4Address(_ host: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    inet_pton(AF_INET, host, &address.sin_addr)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}
