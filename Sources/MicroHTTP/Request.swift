/// An HTTP request as a handler sees it: method, path, query, headers and the whole body.
///
/// The server builds one per request after the body has been received (bodies are limited by
/// ``ServerConfiguration/maxBodySize``). Tests of other modules build them directly with
/// ``init(method:path:query:headers:body:remoteAddress:)`` or ``init(method:target:headers:body:)``.
public struct Request: Sendable {
    /// What the server received: one reference shared by the request's copies (the router and the
    /// middleware each pass on a copy with a field of their own set, its route, its actor), copied
    /// itself only when one of its fields is set.
    private var received: Received

    /// The request method.
    public var method: HTTPMethod {
        get { received.method }
        set { uniquelyReceived().method = newValue }
    }
    /// The path, percent-decoded once and not normalised (`/a/../b` stays as it is).
    ///
    /// Decoded like libmicrohttpd decodes it (malformed escapes are kept as they are), except that
    /// `%00` yields a NUL character rather than cutting the path short.
    public var path: String {
        get { received.path }
        set { uniquelyReceived().path = newValue }
    }
    /// The path exactly as received (still percent-encoded); nil for requests made without one.
    /// The router splits it before decoding, so an encoded `/` (`%2F`) stays inside its segment.
    public internal(set) var rawPath: String? {
        get { received.rawPath }
        set { uniquelyReceived().rawPath = newValue }
    }
    /// The query string exactly as received (still percent-encoded), without `?`; nil when the target has no `?`.
    public var rawQuery: String? {
        get { received.rawQuery }
        set { uniquelyReceived().rawQuery = newValue }
    }
    /// The decoded query items.
    public var query: QueryItems {
        get { received.query }
        set { uniquelyReceived().query = newValue }
    }
    /// The request headers, as received.
    public var headers: HTTPHeaders {
        get { received.headers }
        set { uniquelyReceived().headers = newValue }
    }
    /// The request body (empty for most GETs).
    public var body: [UInt8] {
        get { received.body }
        set { uniquelyReceived().body = newValue }
    }
    /// The request id: 16 hex characters, also sent back as `X-Request-ID` and written in the logs.
    public var id: String {
        get { received.id }
        set { uniquelyReceived().id = newValue }
    }
    /// The client's IP address, when known.
    public var remoteAddress: String? {
        get { received.remoteAddress }
        set { uniquelyReceived().remoteAddress = newValue }
    }
    /// Route parameters, filled by the ``Router``: `/people/:id` gives `parameters["id"] == "42"`.
    public var parameters: RouteParameters
    /// The pattern of the route that matched (`/people/:id`), filled by the ``Router``; nil before routing.
    public var route: String?
    /// The name of the account the request acts for, set by a sign-in middleware (Cellar's
    /// sessions) from what it verified; nil when no one is signed in. The server never sets it.
    public var actor: String?
    /// What a sign-in middleware verified of the request's credentials (Cellar's bearer token),
    /// kept so that later checks in the same request (a write's permission) need not verify them
    /// again: an HMAC and a decoding per check. nil when nothing was verified; the server never
    /// sets it, and nothing a client sends does.
    public var verifiedCredentials: (any Sendable)?

    /// The fields as received. `@unchecked Sendable`: a `Received` is changed only through
    /// ``Request/uniquelyReceived()``, when no other request holds it.
    private final class Received: @unchecked Sendable {
        var method: HTTPMethod
        var path: String
        var rawPath: String?
        var rawQuery: String?
        var query: QueryItems
        var headers: HTTPHeaders
        var body: [UInt8]
        var id: String
        var remoteAddress: String?

        init(
            method: HTTPMethod, path: String, rawPath: String?, rawQuery: String?, query: QueryItems, headers: HTTPHeaders, body: [UInt8],
            id: String, remoteAddress: String?
        ) {
            self.method = method
            self.path = path
            self.rawPath = rawPath
            self.rawQuery = rawQuery
            self.query = query
            self.headers = headers
            self.body = body
            self.id = id
            self.remoteAddress = remoteAddress
        }

        func copy() -> Received {
            Received(
                method: method, path: path, rawPath: rawPath, rawQuery: rawQuery, query: query, headers: headers, body: body, id: id,
                remoteAddress: remoteAddress)
        }
    }

    /// The received fields, copied first if another request shares them: setting a field changes this request only.
    private mutating func uniquelyReceived() -> Received {
        if !isKnownUniquelyReferenced(&received) { received = received.copy() }
        return received
    }

    /// Creates a request, e.g. for testing a controller without sockets.
    public init(
        method: HTTPMethod = .get, path: String, query: QueryItems = QueryItems(), headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [], remoteAddress: String? = nil
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: body, id: RequestID.next(), remoteAddress: remoteAddress)
    }

    init(method: HTTPMethod, path: String, query: QueryItems, headers: HTTPHeaders, body: [UInt8], id: String, remoteAddress: String?) {
        let rawQuery = query.isEmpty ? nil : query.percentEncoded
        self.init(
            method: method, path: path, rawPath: nil, rawQuery: rawQuery, query: query, headers: headers, body: body, id: id,
            remoteAddress: remoteAddress)
    }

    /// The server's: every field as received.
    init(
        method: HTTPMethod, path: String, rawPath: String?, rawQuery: String?, query: QueryItems, headers: HTTPHeaders, body: [UInt8], id: String,
        remoteAddress: String?
    ) {
        received = Received(
            method: method, path: path, rawPath: rawPath, rawQuery: rawQuery, query: query, headers: headers, body: body, id: id,
            remoteAddress: remoteAddress)
        parameters = RouteParameters()
        route = nil
        actor = nil
        verifiedCredentials = nil
    }

    /// Creates a request from a target such as `/people?offset=20&limit=10`; the path part is taken as already decoded.
    ///
    /// - Throws: ``HTTPError`` (400) when the query is malformed, as the server would answer.
    public init(method: HTTPMethod = .get, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) throws(HTTPError) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawQuery = parts.count > 1 ? String(parts[1]) : nil
        self.init(method: method, path: String(parts[0]), headers: headers, body: body)
        self.rawPath = String(parts[0])
        self.rawQuery = rawQuery
        self.query = try rawQuery.map { raw throws(HTTPError) in try QueryItems(parsing: raw) } ?? QueryItems()
    }

    /// Whether the client asked for JSON rather than HTML.
    ///
    /// True when the `Accept` header lists `application/json` (or a `+json` type) and does not
    /// list `text/html` before it. Quality values are ignored: the order decides. Browsers send
    /// `text/html` first; `curl -H 'Accept: application/json'` and `fetch` with that header get JSON.
    public var prefersJSON: Bool {
        guard let accept = headers["Accept"] else { return false }
        for range in accept.split(separator: ",") {
            let mediaType = range.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces().lowercased() } ?? ""
            if mediaType == "text/html" { return false }
            if mediaType == "application/json" || mediaType.hasSuffix("+json") { return true }
        }
        return false
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
