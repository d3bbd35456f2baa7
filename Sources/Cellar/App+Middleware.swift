import MicroHTTP

extension App {
    /// Adds `middleware` around every route of the app: lists, details, pages, routes of its own,
    /// static files and `/healthz` alike.
    ///
    /// Middleware added first runs first (outermost), inside the app's ``crossOriginProtection``.
    /// It sees the request before the route and the response after, and may answer alone: a
    /// refused request, a redirect.
    ///
    /// ```swift
    /// struct RequireMaintenanceKey: Middleware {
    ///     func respond(to request: Request, next: (Request) throws -> Response) throws -> Response {
    ///         guard request.method == .get || request.headers["X-Maintenance-Key"] == "open sesame" else {
    ///             throw HTTPError(.serviceUnavailable, "Changes are paused for maintenance.")
    ///         }
    ///         return try next(request)
    ///     }
    /// }
    /// app.use(RequireMaintenanceKey())
    /// ```
    public func use(_ middleware: some Middleware) {
        self.middleware.append(middleware)
    }

    /// What the server answers through: ``makeServingRouter()`` inside the app's middleware.
    public func makeResponder() -> any HTTPResponder {
        middlewareChain(around: makeServingRouter())
    }

    /// `responder` inside the app's middleware (``crossOriginResourceSharing`` when on, then ``crossOriginProtection``, then sign-in when
    /// the app signs people in, then what ``use(_:)`` added); `responder` itself when there is none.
    func middlewareChain(around responder: any HTTPResponder) -> any HTTPResponder {
        // Sign-in between the two: a forged request is refused before any session is read, and the
        // app's middleware sees the request's actor.
        var crossOrigin = crossOriginProtection
        // A request with a verified bearer token is a script's, not a browser's: never a forgery.
        if let control = accessControl, crossOrigin != nil, crossOrigin?.isExempt == nil {
            crossOrigin?.isExempt = { control.hasVerifiedToken($0) }
        }
        let chain: [any Middleware] =
            (crossOriginResourceSharing.map { [$0] } ?? []) + (crossOrigin.map { [$0] } ?? []) + (signInMiddleware().map { [$0] } ?? []) + middleware
        return chain.isEmpty ? responder : MiddlewareChain(chain, around: responder)
    }
}
