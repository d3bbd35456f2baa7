import MicroHTTP

// MicroHTTP's types that a route, a page or a middleware handles, named here so that an app
// importing Cellar alone has them (as JSONWriter is, and TableKit's HTMLWriter).

/// An HTTP request: method, path, query, headers, body (MicroHTTP's ``MicroHTTP/Request``).
public typealias Request = MicroHTTP.Request
/// An HTTP response: status, headers, body (MicroHTTP's ``MicroHTTP/Response``).
public typealias Response = MicroHTTP.Response
/// An error thrown to answer with a status and a message (MicroHTTP's ``MicroHTTP/HTTPError``).
public typealias HTTPError = MicroHTTP.HTTPError
/// A request method (MicroHTTP's ``MicroHTTP/HTTPMethod``).
public typealias HTTPMethod = MicroHTTP.HTTPMethod
/// A response status (MicroHTTP's ``MicroHTTP/HTTPStatus``).
public typealias HTTPStatus = MicroHTTP.HTTPStatus
/// Header fields (MicroHTTP's ``MicroHTTP/HTTPHeaders``).
public typealias HTTPHeaders = MicroHTTP.HTTPHeaders
/// A query string's items (MicroHTTP's ``MicroHTTP/QueryItems``).
public typealias QueryItems = MicroHTTP.QueryItems
/// A step around every route (MicroHTTP's ``MicroHTTP/Middleware``); add one with ``App/use(_:)``.
public typealias Middleware = MicroHTTP.Middleware
/// The forged-request protection every app has (MicroHTTP's ``MicroHTTP/CrossOriginProtection``).
public typealias CrossOriginProtection = MicroHTTP.CrossOriginProtection
