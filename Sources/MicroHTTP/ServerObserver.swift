/// Receives connection and request events from a ``Server``, e.g. to keep metrics.
///
/// Methods are called on libmicrohttpd's worker threads, concurrently; keep them short and thread-safe.
/// Every method has a default implementation that does nothing.
public protocol ServerObserver: Sendable {
    /// A client connected.
    func connectionOpened()
    /// A connection closed, for whatever reason.
    func connectionClosed()
    /// A request finished: its response was sent whole, or the client went away, or the connection failed.
    func requestCompleted(_ summary: RequestSummary)
}

extension ServerObserver {
    public func connectionOpened() {}
    public func connectionClosed() {}
    public func requestCompleted(_ summary: RequestSummary) {}
}
