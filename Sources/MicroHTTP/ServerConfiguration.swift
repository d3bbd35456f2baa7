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
    /// Simultaneous connections across all clients; more are refused.
    public var connectionLimit: Int
    /// Simultaneous connections from one IP address (load generators and tests open hundreds from 127.0.0.1).
    public var perIPConnectionLimit: Int
    /// Seconds a connection may stay idle (including a client that connects and sends nothing) before it is closed.
    public var connectionTimeout: Int
    /// Seconds a connection may take to send a complete request head, counted from its start and, on a
    /// keep-alive connection, from the end of the previous response; 0 for no limit.
    ///
    /// ``connectionTimeout`` is an idle timeout that any byte resets, so a client trickling a header
    /// byte a second (slowloris) is never cut by it. A connection over this deadline is closed, checked
    /// about four times per timeout. An idle keep-alive connection counts as waiting for a head too.
    public var headerTimeout: Int
    /// Memory per connection for the request line, headers and buffers, in bytes; a request whose head does not fit gets 414 or 431.
    public var connectionMemoryLimit: Int
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

    /// Security headers sent by default: no MIME sniffing, a strict referrer policy and a same-origin content security policy.
    public static let securityHeaders: HTTPHeaders = [
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "strict-origin-when-cross-origin",
        "Content-Security-Policy":
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; "
            + "base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    ]

    /// Creates a configuration; every parameter has a production-safe default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        threads: Int = ServerConfiguration.activeProcessorCount,
        connectionLimit: Int = 1024,
        perIPConnectionLimit: Int = 256,
        connectionTimeout: Int = 30,
        headerTimeout: Int = 10,
        connectionMemoryLimit: Int = 32 * 1024,
        maxBodySize: Int = 1 << 20,
        streamChunkSize: Int = 64 * 1024,
        defaultHeaders: HTTPHeaders = ServerConfiguration.securityHeaders,
        listenBacklog: Int = 511,
        errorRenderer: ErrorRenderer? = nil
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.connectionLimit = connectionLimit
        self.perIPConnectionLimit = perIPConnectionLimit
        self.connectionTimeout = connectionTimeout
        self.headerTimeout = headerTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
        self.maxBodySize = maxBodySize
        self.streamChunkSize = streamChunkSize
        self.defaultHeaders = defaultHeaders
        self.listenBacklog = listenBacklog
        self.errorRenderer = errorRenderer
    }

    /// The number of processors currently online (at least 1).
    public static var activeProcessorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
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
        try require(connectionTimeout >= 1, "connectionTimeout must be at least 1 second, not \(connectionTimeout)")
        try require((0...3600).contains(headerTimeout), "headerTimeout must be in 0...3600 seconds, not \(headerTimeout)")
        try require(
            connectionMemoryLimit >= 16 * 1024, "connectionMemoryLimit must be at least 16384 bytes, not \(connectionMemoryLimit)")
        try require(maxBodySize >= 0, "maxBodySize must not be negative")
        try require((1024...(16 << 20)).contains(streamChunkSize), "streamChunkSize must be in 1 KiB...16 MiB, not \(streamChunkSize)")
        try require((1...65535).contains(listenBacklog), "listenBacklog must be in 1...65535, not \(listenBacklog)")
    }
}
