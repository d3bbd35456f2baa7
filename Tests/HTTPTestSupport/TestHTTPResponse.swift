/// A response read by ``TestHTTPClient``: status line, headers in order, and the decoded body.
public struct TestHTTPResponse: Sendable {
    /// The HTTP version from the status line, e.g. `HTTP/1.1`.
    public var version: String
    /// The status code.
    public var status: Int
    /// The reason phrase.
    public var reason: String
    /// The header fields, in order, as received.
    public var headerFields: [(name: String, value: String)]
    /// The body, with chunked framing removed (empty for HEAD, 204 and 304).
    public var body: [UInt8]

    /// Creates a response (mostly for the client itself).
    public init(version: String, status: Int, reason: String, headerFields: [(name: String, value: String)], body: [UInt8]) {
        self.version = version
        self.status = status
        self.reason = reason
        self.headerFields = headerFields
        self.body = body
    }

    /// Case-insensitive header lookup: the first value for `name`, or nil.
    public var headers: Headers { Headers(fields: headerFields) }

    /// The body decoded as UTF-8 (invalid bytes replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Header fields with case-insensitive lookup.
    public struct Headers: Sendable {
        let fields: [(name: String, value: String)]

        /// The first value for `name` (case-insensitive), or nil.
        public subscript(name: String) -> String? {
            fields.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// All values for `name` (case-insensitive), in order.
        public func values(for name: String) -> [String] {
            fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
    }
}
