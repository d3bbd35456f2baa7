/// An HTTP response: status, headers and body.
///
/// `Content-Length` (or chunked framing), `Date` and `Connection` are added by libmicrohttpd;
/// ``ServerConfiguration/defaultHeaders`` and `X-Request-ID` by the server. A response with a
/// ``ResponseBody/stream(_:)`` body must be returned once, for one request.
public struct Response {
    /// The status.
    public var status: HTTPStatus
    /// The headers the handler sets (sanitised against header injection by ``HTTPHeaders``).
    public var headers: HTTPHeaders
    /// The body.
    public var body: ResponseBody

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: ResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An HTML page (`text/html; charset=utf-8`).
    public static func html(_ html: String, status: HTTPStatus = .ok) -> Response {
        .html(Array(html.utf8), status: status)
    }

    /// An HTML page from UTF-8 bytes.
    public static func html(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(bytes))
    }

    /// A JSON document (`application/json`).
    public static func json(_ json: String, status: HTTPStatus = .ok) -> Response {
        .json(Array(json.utf8), status: status)
    }

    /// A JSON document from UTF-8 bytes.
    public static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(bytes))
    }

    /// Plain text (`text/plain; charset=utf-8`).
    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array(text.utf8)))
    }

    /// A redirect to `location` (303 See Other by default, so a POST is followed by a GET).
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        Response(status: status, headers: ["Location": location], body: .empty)
    }

    /// A Server-Sent Events stream (`text/event-stream`); see ``EventStream``.
    ///
    /// `X-Accel-Buffering: no` has nginx pass each event on as it comes, whatever its
    /// `proxy_buffering` (it keeps the header to itself); a buffering proxy would hold small events back.
    public static func events(_ stream: EventStream) -> Response {
        Response(
            status: .ok, headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"],
            body: .events(stream))
    }

    /// A response streamed from `producer`, with the given content type.
    public static func stream(_ producer: any ResponseBodyProducer, contentType: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: .stream(producer))
    }
}
