/// An error a handler throws to answer with a given status and a message meant for the client.
///
/// The server turns it into an error page (HTML, or JSON when ``Request/prefersJSON``) through the
/// configured ``ServerConfiguration/errorRenderer``. Any other error thrown by a handler becomes a
/// 500 whose page shows only the request id; the error itself goes to the log.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The status the response carries.
    public var status: HTTPStatus
    /// A message safe to show to the client (it is escaped when rendered).
    public var message: String
    /// Extra headers for the error response, e.g. `Allow` on a 405.
    public var headers: HTTPHeaders

    /// Creates an error with a status, a user-facing message and optional extra headers.
    public init(_ status: HTTPStatus, _ message: String? = nil, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.message = message ?? status.reasonPhrase
        self.headers = headers
    }

    public var description: String { "\(status): \(message)" }

    /// 400: the request is malformed (bad query string, bad parameter).
    public static func badRequest(_ message: String = "The request could not be understood.") -> HTTPError {
        HTTPError(.badRequest, message)
    }

    /// 404: nothing here.
    public static func notFound(_ message: String = "The requested resource was not found.") -> HTTPError {
        HTTPError(.notFound, message)
    }

    /// 405 with an `Allow` header listing the methods the path answers.
    public static func methodNotAllowed(allowed: [HTTPMethod], _ message: String? = nil) -> HTTPError {
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        return HTTPError(
            .methodNotAllowed, message ?? "This resource allows only \(allow).",
            headers: HTTPHeaders([("Allow", allow)]))
    }

    /// 406: no representation the client accepts.
    public static func notAcceptable(_ message: String = "No acceptable representation is available.") -> HTTPError {
        HTTPError(.notAcceptable, message)
    }

    /// 413: the request body exceeds the configured limit.
    public static func payloadTooLarge(_ message: String = "The request body is too large.") -> HTTPError {
        HTTPError(.payloadTooLarge, message)
    }

    /// 414: the request target is too long.
    public static func uriTooLong(_ message: String = "The request URI is too long.") -> HTTPError {
        HTTPError(.uriTooLong, message)
    }

    /// 500: a fault on our side; the message should not reveal internals.
    public static func internalServerError(_ message: String = "An internal error occurred.") -> HTTPError {
        HTTPError(.internalServerError, message)
    }

    /// 503: temporarily unable to serve.
    public static func serviceUnavailable(_ message: String = "The service is temporarily unavailable.") -> HTTPError {
        HTTPError(.serviceUnavailable, message)
    }
}
