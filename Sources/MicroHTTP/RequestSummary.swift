/// What a ``ServerObserver`` learns about one finished request.
public struct RequestSummary: Sendable {
    /// How a request ended.
    public enum Outcome: Sendable, Equatable {
        /// The whole response was handed to the kernel.
        case completed
        /// The client closed the connection before the response was sent whole.
        case clientDisconnected
        /// The connection timed out.
        case timedOut
        /// The response stream failed, the server shut down, or another error closed the connection.
        case failed
    }

    /// The request method.
    public let method: HTTPMethod
    /// The path as requested (decoded), not the route pattern.
    public let path: String
    /// The pattern of the route that answered (`/people/:id`), or nil (no route matched, or the request never reached the router).
    public let route: String?
    /// The status sent, or nil when no response was queued.
    public let status: HTTPStatus?
    /// Body bytes sent: the body's length, or for a stream the bytes produced so far; 0 for HEAD and 304.
    public let bytesSent: Int
    /// From the request line's arrival to the end of the response.
    public let duration: Duration
    /// The request id (also in `X-Request-ID`).
    public let requestID: String
    /// How the request ended.
    public let outcome: Outcome

    /// Creates a summary (for tests of observers).
    public init(
        method: HTTPMethod, path: String, route: String?, status: HTTPStatus?, bytesSent: Int, duration: Duration, requestID: String,
        outcome: Outcome
    ) {
        self.method = method
        self.path = path
        self.route = route
        self.status = status
        self.bytesSent = bytesSent
        self.duration = duration
        self.requestID = requestID
        self.outcome = outcome
    }
}
