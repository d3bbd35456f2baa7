/// Something that answers requests: the ``Router``, or any handler the ``Server`` is given.
///
/// `respond(to:)` runs synchronously on a libmicrohttpd worker thread, possibly on several
/// threads at once, hence `Sendable`. Throw ``HTTPError`` for a 4xx or 5xx with a message for
/// the client; any other error becomes a 500 and is logged with the request id.
public protocol HTTPResponder: Sendable {
    /// Answers one request.
    func respond(to request: Request) throws -> Response
}
