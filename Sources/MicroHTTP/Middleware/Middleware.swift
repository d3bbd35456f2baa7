/// A step around every responder: it sees the request before the route does, and the response
/// after, and may answer on its own without calling `next` (a refused request, a redirect to sign
/// in).
///
/// ```swift
/// struct PoweredBy: Middleware {
///     func respond(to request: Request, next: (Request) throws -> Response) throws -> Response {
///         var response = try next(request)
///         response.headers.replaceOrAdd(name: "X-Powered-By", value: "Cellar")
///         return response
///     }
/// }
/// ```
///
/// Middleware runs synchronously on the worker thread that serves the request, on several threads
/// at once, hence `Sendable`. Throw ``HTTPError`` to answer with an error page (HTML, or JSON for
/// a client that asked for it); any other error becomes a 500 logged with the request id, as from
/// a route. An error thrown further in (a route's 404) comes out of `next` as that error: catch
/// it to answer otherwise; the server renders it once it has left the outermost middleware.
/// ``MiddlewareChain`` runs a list of them, the first added outermost.
public protocol Middleware: Sendable {
    /// Answers `request`, calling `next` for the rest of the chain and the route (at most once).
    func respond(to request: Request, next: (Request) throws -> Response) throws -> Response
}
