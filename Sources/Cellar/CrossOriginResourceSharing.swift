import MicroHTTP

/// Cross-origin resource sharing for the JSON API (`--cors`, `CELLAR_CORS`, as Datasette's
/// `--cors`): a page on another site may read Cellar's JSON with `fetch`, and send writes that
/// carry a bearer token.
///
/// Every JSON answer — a list's or a row's `.json`, `/-/query.json`, the write API's answers and
/// refusals — carries the headers Datasette sends: `Access-Control-Allow-Origin: *`,
/// `-Allow-Headers`, `-Allow-Methods`, `-Max-Age`, and `-Expose-Headers` (`Link`, and `ETag`, which
/// a script needs to send `If-Match`). A preflight (`OPTIONS` with `Access-Control-Request-Method`)
/// is answered here, 204, before sign-in: it carries no credentials, and the real request's own
/// answer still decides what the page may read.
///
/// It grants nothing: the origin is `*` and there is never `Access-Control-Allow-Credentials`, so a
/// browser sends no cookies with such a request, or lets no page read what cookies would have
/// answered. A write from another site stays refused by ``CrossOriginProtection`` unless it carries
/// a verified bearer token, and then the token's permissions apply. HTML pages get none of these
/// headers.
public struct CrossOriginResourceSharing: Middleware {
    /// The request headers a script may send: a bearer token, a JSON body's type, a row's version.
    public static let allowedHeaders = "Authorization, Content-Type, If-Match"
    public static let allowedMethods = "GET, POST, HEAD, OPTIONS"
    /// The response headers a script may read beyond the safelisted ones.
    public static let exposedHeaders = "Link, ETag"
    /// How long a browser may keep a preflight's answer, in seconds.
    public static let maximumAge = "3600"

    public init() {}

    public func respond(to request: Request, next: (Request) throws -> Response) throws -> Response {
        if request.method == .options, request.headers["Access-Control-Request-Method"] != nil {
            var response = Response(status: .noContent)
            Self.addHeaders(to: &response.headers)
            return response
        }
        do {
            var response = try next(request)
            let type = response.headers["Content-Type"]?.lowercased() ?? ""
            if type.contains("json") || Self.isJSONRequest(request) { Self.addHeaders(to: &response.headers) }
            return response
        } catch var error as HTTPError where Self.isJSONRequest(request) {
            // Rendered after the middleware, as JSON (``ErrorPages``): a script may read why.
            Self.addHeaders(to: &error.headers)
            throw error
        }
    }

    /// Whether the answer to `request` is JSON whatever it holds: the write API's, a `.json` path,
    /// or a client that asked for JSON.
    static func isJSONRequest(_ request: Request) -> Bool {
        WriteAPIErrors.applies(to: request) || request.prefersJSON || request.path.hasSuffix(".json")
    }

    static func addHeaders(to headers: inout HTTPHeaders) {
        headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: "*")
        headers.replaceOrAdd(name: "Access-Control-Allow-Headers", value: allowedHeaders)
        headers.replaceOrAdd(name: "Access-Control-Allow-Methods", value: allowedMethods)
        headers.replaceOrAdd(name: "Access-Control-Expose-Headers", value: exposedHeaders)
        headers.replaceOrAdd(name: "Access-Control-Max-Age", value: maximumAge)
    }
}
