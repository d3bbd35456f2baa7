/// A responder that runs ``Middleware`` around another responder (a ``Router``): the first
/// middleware sees the request first and the response last.
///
/// The route a middleware's `next` reaches is still reported to the server (the access log's
/// `route=` and the metrics), and a request a middleware answers alone is counted unrouted.
public struct MiddlewareChain: HTTPResponder {
    /// The middleware, outermost first.
    public let middleware: [any Middleware]
    /// What the innermost `next` calls.
    public let responder: any HTTPResponder

    /// Runs `middleware` (outermost first) around `responder`.
    public init(_ middleware: [any Middleware], around responder: any HTTPResponder) {
        self.middleware = middleware
        self.responder = responder
    }

    public func respond(to request: Request) throws -> Response {
        var route: String?
        return try respond(to: request, matchedRoute: &route)
    }

    public func respond(to request: Request, matchedRoute: inout String?) throws -> Response {
        try respond(to: request, from: 0, matchedRoute: &matchedRoute)
    }

    /// The chain from the `index`th middleware in; a closure per step, on the stack (`next` does not escape).
    private func respond(to request: Request, from index: Int, matchedRoute: inout String?) throws -> Response {
        guard index < middleware.count else { return try responder.respond(to: request, matchedRoute: &matchedRoute) }
        return try middleware[index].respond(to: request) { request in
            try respond(to: request, from: index + 1, matchedRoute: &matchedRoute)
        }
    }
}
