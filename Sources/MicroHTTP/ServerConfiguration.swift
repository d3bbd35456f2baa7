#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a ``Server`` listens, how many threads and connections it uses, and its limits.
///
/// Every limit has a safe default; ``Server/start()`` validates the values and throws
/// ``ServerError`` for the ones it cannot use.
public struct ServerConfiguration: Sendable {
    /// Renders an ``HTTPError`` for a request into a response.
    public typealias ErrorRenderer = @Sendable (HTTPError, Request) -> Response

    /// The address to listen on: an IPv4 or IPv6 literal (`0.0.0.0`, `::`), or `localhost` (127.0.0.1).
    public var host: String
    /// The TCP port; 0 picks a free one, readable afterwards from ``Server/port``.
    public var port: Int
    /// Worker threads, each with its own epoll loop; defaults to the number of active processors.
    public var threads: Int
    /// Simultaneous connections across all clients, event streams aside (see ``eventStreamLimit``); more wait in the backlog.
    public var connectionLimit: Int
    /// Simultaneous connections from one IP address, its event streams included (load generators and
    /// tests open hundreds from 127.0.0.1); more are closed at once. An address's streams are capped
    /// below it by ``eventStreamsPerAddress``, so that one address cannot raise its own limit by watching.
    public var perIPConnectionLimit: Int
    /// Open event streams (``EventStream``) across all clients; one more is answered 503 with `Retry-After`.
    ///
    /// A stream's connection stays open, suspended, for as long as the stream: libmicrohttpd counts it
    /// among its connections. The server lets libmicrohttpd hold ``connectionLimit`` plus this many
    /// (``daemonConnectionLimit``) and raises the process's descriptor limit to match when it can.
    public var eventStreamLimit: Int
    /// Open event streams from one IP address; one more is answered 503 with `Retry-After`. At most
    /// ``perIPConnectionLimit``, within which the streams count.
    public var eventStreamsPerAddress: Int
    /// Seconds between heartbeats: a comment sent to each event stream that was sent nothing
    /// meanwhile, so that a client that went away is noticed (by the write that fails) and its stream released.
    public var eventStreamHeartbeat: Int
    /// Seconds a connection may stay idle (including a client that connects and sends nothing) before it is closed.
    public var connectionTimeout: Int
    /// Seconds a connection may take to send a complete request head, counted from its start and, on a
    /// keep-alive connection, from the end of the previous response; 0 for no limit.
    ///
    /// ``connectionTimeout`` is an idle timeout that any byte resets, so a client trickling a header
    /// byte a second (slowloris) is never cut by it. A connection over this deadline is closed, checked
    /// about four times per timeout. An idle keep-alive connection counts as waiting for a head too.
    public var headerTimeout: Int
    /// Memory per connection for the request line, headers and buffers, in bytes. It bounds the
    /// request heads accepted to a quarter of it (``largestRequestHead``); a larger head gets 431.
    public var connectionMemoryLimit: Int
    /// The largest request head accepted (request line and header fields), in bytes: a quarter of
    /// ``connectionMemoryLimit``, 8 KiB by default (Tomcat's default; nginx allows 8 KiB a line).
    /// A larger head is answered 431 and the connection closed.
    ///
    /// libmicrohttpd keeps the head and the response's head in the same memory. It accepts heads up
    /// to about half of it, but a head near that size leaves no room for a response head of a few
    /// hundred bytes, and libmicrohttpd then closes the connection without any answer; a long query
    /// does the same through the `Link` header that repeats it. A quarter leaves room for both.
    public var largestRequestHead: Int { connectionMemoryLimit / 4 }
    /// The most bytes a response's own header fields may take: half of ``connectionMemoryLimit``,
    /// what is left beside the largest request head. A handler's larger fields get a 500 instead.
    public var largestResponseFields: Int { connectionMemoryLimit / 2 }
    /// The connections libmicrohttpd may hold: ``connectionLimit`` plus ``eventStreamLimit``.
    public var daemonConnectionLimit: Int { connectionLimit + eventStreamLimit }
    /// The seconds a client refused an event stream (over ``eventStreamLimit`` or ``eventStreamsPerAddress``) is told to wait, in `Retry-After`.
    public static let eventStreamRetryAfter = 10
    /// The most header fields a request may have: 100, as Apache's `LimitRequestFields` and
    /// Tomcat's `maxHeaderCount`. More get 431 and a close.
    ///
    /// libmicrohttpd keeps a record of each field in the connection's memory too: about 450 fields
    /// of a few bytes each, well under ``largestRequestHead``, left no room for the response head.
    public static let largestFieldCount = 100
    /// The largest request body accepted, in bytes; a larger one gets 413 (the rest of it is read and discarded, not stored).
    public var maxBodySize: Int
    /// Bytes libmicrohttpd asks a streamed body for at a time (and the size of its send buffer per stream).
    public var streamChunkSize: Int
    /// Headers added to every response unless the handler set the same name.
    public var defaultHeaders: HTTPHeaders
    /// The listen backlog (pending connections the kernel queues).
    public var listenBacklog: Int
    /// Renders error responses; nil uses ``ErrorPage/render(_:for:)``.
    public var errorRenderer: ErrorRenderer?
    /// Where the server counts the buffered bodies it has queued and not yet sent. Give the same
    /// object to the handlers that choose between a buffer and a stream by it (Cellar's
    /// `App.bufferedResponseBytes`); a server has its own when none is given.
    public var bufferedResponseBytes: BufferedResponseBytes

    /// Security headers sent by default: no MIME sniffing, a strict referrer policy and a same-origin content security policy.
    public static let securityHeaders: HTTPHeaders = [
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "strict-origin-when-cross-origin",
        "Content-Security-Policy":
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; "
            + "base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    ]

    /// Creates a configuration; every parameter has a production-safe default (``eventStreamsPerAddress``:
    /// 64, or ``perIPConnectionLimit`` when that is lower).
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        threads: Int = ServerConfiguration.activeProcessorCount,
        connectionLimit: Int = 1024,
        perIPConnectionLimit: Int = 256,
        eventStreamLimit: Int = 4096,
        eventStreamsPerAddress: Int? = nil,
        eventStreamHeartbeat: Int = 15,
        connectionTimeout: Int = 30,
        headerTimeout: Int = 10,
        connectionMemoryLimit: Int = 32 * 1024,
        maxBodySize: Int = 1 << 20,
        streamChunkSize: Int = 64 * 1024,
        defaultHeaders: HTTPHeaders = ServerConfiguration.securityHeaders,
        listenBacklog: Int = 511,
        errorRenderer: ErrorRenderer? = nil,
        bufferedResponseBytes: BufferedResponseBytes = BufferedResponseBytes()
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.connectionLimit = connectionLimit
        self.perIPConnectionLimit = perIPConnectionLimit
        self.eventStreamLimit = eventStreamLimit
        self.eventStreamsPerAddress = eventStreamsPerAddress ?? min(64, perIPConnectionLimit)
        self.eventStreamHeartbeat = eventStreamHeartbeat
        self.connectionTimeout = connectionTimeout
        self.headerTimeout = headerTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
        self.maxBodySize = maxBodySize
        self.streamChunkSize = streamChunkSize
        self.defaultHeaders = defaultHeaders
        self.listenBacklog = listenBacklog
        self.errorRenderer = errorRenderer
        self.bufferedResponseBytes = bufferedResponseBytes
    }

    /// The number of processors this process may use (at least 1): those online, no more than its
    /// CPU affinity allows (`taskset`, a container's `--cpuset-cpus`), and no more than its
    /// cgroup's CPU quota rounded up (`docker run --cpus=1.5` gives 2). One worker thread per
    /// core of the whole host would oversubscribe a container limited to a few.
    public static var activeProcessorCount: Int {
        var count = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #if os(Linux)
            if let allowed = affinityCount() { count = min(count, allowed) }
            if let quota = cgroupQuotaCount() { count = min(count, quota) }
        #endif
        return max(1, count)
    }

    #if os(Linux)
        /// The processors in this process's affinity mask (`Cpus_allowed` in `/proc/self/status`,
        /// hexadecimal words separated by commas), or nil when it cannot be read.
        static func affinityCount() -> Int? {
            guard let status = readSmallFile("/proc/self/status") else { return nil }
            for line in status.split(separator: "\n") where line.hasPrefix("Cpus_allowed:") {
                return allowedCount(mask: String(line.dropFirst("Cpus_allowed:".count)))
            }
            return nil
        }

        /// The CPU quota of this process's cgroup in whole processors, or nil when there is none:
        /// cgroup v2's `cpu.max`, else v1's `cpu.cfs_quota_us` and `cpu.cfs_period_us`.
        static func cgroupQuotaCount() -> Int? {
            let groups = readSmallFile("/proc/self/cgroup") ?? ""
            // v2: the line "0::/path"; inside a container's cgroup namespace the path is "/".
            for line in groups.split(separator: "\n") where line.hasPrefix("0::") {
                // The group's own file, else the root's (a container may not see its path).
                let path = line.dropFirst(3)
                let root = "/sys/fs/cgroup/cpu.max"
                let text = path == "/" ? readSmallFile(root) : readSmallFile("/sys/fs/cgroup" + path + "/cpu.max") ?? readSmallFile(root)
                if let text { return quotaCount(cpuMax: text) }
            }
            if let quota = readSmallFile("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"),
                let period = readSmallFile("/sys/fs/cgroup/cpu/cpu.cfs_period_us")
            {
                return quotaCount(quota: quota, period: period)
            }
            return nil
        }
    #endif

    /// The processors set in an affinity mask written as `Cpus_allowed` does ("3", "ff,ffffffff");
    /// nil when none is set or it is not such a mask.
    static func allowedCount(mask: String) -> Int? {
        let words = fields(mask)
        guard words.count == 1 else { return nil }
        var count = 0
        for character in words[0] where character != "," {
            guard let digit = character.hexDigitValue else { return nil }
            count += digit.nonzeroBitCount
        }
        return count > 0 ? count : nil
    }

    /// Whole processors for a cgroup v2 `cpu.max` ("200000 100000" is 2, "150000 100000" rounds
    /// up to 2); nil for "max" (no limit) or anything unreadable.
    static func quotaCount(cpuMax: String) -> Int? {
        let words = fields(cpuMax)
        guard words.count == 2 else { return nil }
        return quotaCount(quota: String(words[0]), period: String(words[1]))
    }

    /// Whole processors for a quota and a period in microseconds (v1 writes -1 for no limit).
    static func quotaCount(quota: String, period: String) -> Int? {
        func number(_ text: String) -> Int? {
            let words = fields(text)
            return words.count == 1 ? Int(words[0]) : nil
        }
        guard let quota = number(quota), let period = number(period), quota > 0, period > 0 else { return nil }
        return (quota + period - 1) / period
    }

    /// The words of a `/proc` or `/sys` file's text, split at spaces, tabs and line breaks.
    private static func fields(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
    }

    /// A small text file's contents (`/proc`, `/sys`), or nil when it cannot be read.
    static func readSmallFile(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = fread(&buffer, 1, buffer.count, file)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Throws ``ServerError/invalidConfiguration(_:)`` for the first value out of range.
    func validate() throws(ServerError) {
        func require(_ condition: Bool, _ message: String) throws(ServerError) {
            if !condition { throw ServerError.invalidConfiguration(message) }
        }
        try require((0...65535).contains(port), "port must be in 0...65535, not \(port)")
        try require((1...1024).contains(threads), "threads must be in 1...1024, not \(threads)")
        try require(connectionLimit >= 1, "connectionLimit must be at least 1, not \(connectionLimit)")
        try require(perIPConnectionLimit >= 1, "perIPConnectionLimit must be at least 1, not \(perIPConnectionLimit)")
        try require(eventStreamLimit >= 0, "eventStreamLimit must not be negative, not \(eventStreamLimit)")
        try require(
            (0...perIPConnectionLimit).contains(eventStreamsPerAddress),
            "eventStreamsPerAddress must be in 0...perIPConnectionLimit (\(perIPConnectionLimit)), not \(eventStreamsPerAddress)")
        try require((1...3600).contains(eventStreamHeartbeat), "eventStreamHeartbeat must be in 1...3600 seconds, not \(eventStreamHeartbeat)")
        try require(connectionTimeout >= 1, "connectionTimeout must be at least 1 second, not \(connectionTimeout)")
        try require((0...3600).contains(headerTimeout), "headerTimeout must be in 0...3600 seconds, not \(headerTimeout)")
        try require(
            connectionMemoryLimit >= 16 * 1024, "connectionMemoryLimit must be at least 16384 bytes, not \(connectionMemoryLimit)")
        try require(maxBodySize >= 0, "maxBodySize must not be negative")
        try require((1024...(16 << 20)).contains(streamChunkSize), "streamChunkSize must be in 1 KiB...16 MiB, not \(streamChunkSize)")
        try require((1...65535).contains(listenBacklog), "listenBacklog must be in 1...65535, not \(listenBacklog)")
    }
}
