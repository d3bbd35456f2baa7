/// Something that answers requests: the ``Router``, or any handler the ``Server`` is given.
///
/// `respond(to:)` runs synchronously on a libmicrohttpd worker thread, possibly on several
/// threads at once, hence `Sendable`. Throw ``HTTPError`` for a 4xx or 5xx with a message for
/// the client; any other error becomes a 500 and is logged with the request id.
///
/// A responder implements ``respond(to:)`` only. One that routes, as the ``Router`` does, also
/// implements ``respond(to:matchedRoute:)`` to tell the server which route pattern answered: the
/// server writes it in the access log (`route=/people/:id`) and gives it to its observer
/// (``RequestSummary/route``).
public protocol HTTPResponder: Sendable {
    /// Answers one request.
    func respond(to request: Request) throws -> Response

    /// Answers one request and sets `matchedRoute` to the pattern of the route that answered
    /// (`/people/:id`), or leaves it nil. The server calls this one.
    ///
    /// Set `matchedRoute` before calling the route's handler: when the handler throws, the error's
    /// response is still counted under its route. The default implementation calls
    /// ``respond(to:)`` and names no route.
    func respond(to request: Request, matchedRoute: inout String?) throws -> Response
}

extension HTTPResponder {
    public func respond(to request: Request, matchedRoute: inout String?) throws -> Response {
        try respond(to: request)
    }
}
