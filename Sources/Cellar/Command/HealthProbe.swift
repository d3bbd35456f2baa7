#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One `GET` over a plain socket, enough to read the status line: a runtime image has no curl.
enum HealthProbe {
    struct Problem: Error {
        let message: String
    }

    static func statusLine(host: String, port: Int, path: String, timeoutSeconds: Int) -> Result<String, Problem> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var addresses: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &addresses)
        guard lookup == 0, let first = addresses else {
            return .failure(Problem(message: "cannot resolve '\(host)': \(String(cString: gai_strerror(lookup)))"))
        }
        defer { freeaddrinfo(first) }
        var lastError = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard descriptor >= 0 else {
                lastError = String(cString: strerror(errno))
                continue
            }
            defer { close(descriptor) }
            // On Linux SO_SNDTIMEO bounds connect() too.
            var time = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            guard connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
                lastError = "connect: \(String(cString: strerror(errno)))"
                continue
            }
            let authority = "\(host.contains(":") ? "[\(host)]" : host):\(port)"
            let request = Array("GET \(path) HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: cellar-healthcheck\r\nConnection: close\r\n\r\n".utf8)
            var sent = 0
            while sent < request.count {
                let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { return .failure(Problem(message: "send: \(String(cString: strerror(errno)))")) }
                sent += count
            }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1024)
            while !received.contains(UInt8(ascii: "\n")) && received.count < 8192 {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else {
                    let reason = count == 0 ? "connection closed before a status line" : "recv: \(String(cString: strerror(errno)))"
                    return .failure(Problem(message: reason))
                }
                received += buffer[..<count]
            }
            let line = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            guard line.hasPrefix("HTTP/") else { return .failure(Problem(message: "not an HTTP answer: '\(line.prefix(80))'")) }
            return .success(line)
        }
        return .failure(Problem(message: lastError))
    }
}

/// Writes a message to standard error, unbuffered (what is left of the process may be short).
func writeToStandardError(_ message: String) {
    var message = message
    message.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(STDERR_FILENO, bytes.baseAddress.unsafelyUnwrapped + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
