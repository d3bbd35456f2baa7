/// Refuses requests that change something (any method but GET, HEAD and OPTIONS) when a browser
/// says they come from another site: a form or script elsewhere cannot post here with the
/// visitor's cookies (cross-site request forgery).
///
/// The rule is Go 1.25's `http.CrossOriginProtection`, exactly:
///
/// 1. GET, HEAD and OPTIONS are always allowed.
/// 2. `Sec-Fetch-Site: same-origin` or `none` (typed in the address bar, a bookmark): allowed.
///    Any other value (`cross-site`, `same-site`): refused.
/// 3. Without `Sec-Fetch-Site` (a browser from before 2023): allowed when `Origin`'s host and port
///    equal the `Host` header (no scheme in that compare: `Host` has none), refused when they
///    differ.
/// 4. Neither header: not a browser (curl, a script), or a same-origin request of a very old one:
///    allowed.
///
/// A refused request is allowed after all when its `Origin` is one of ``trustedOrigins``, or when
/// ``isExempt`` says so; both are asked only for requests the rule refuses. Requests a bearer token
/// signs are not a browser's, and are meant to be exempted here (`isExempt`), once tokens exist.
///
/// Behind a proxy, `Host` must reach the server with its port (nginx: `proxy_set_header Host
/// $http_host`, as `deploy/nginx/nginx.conf` does; `$host` drops the port, and every POST from a
/// browser on a non-default port would then be refused).
public struct CrossOriginProtection: Middleware {
    /// `Origin` values (`https://admin.example.com`, scheme, host and port as browsers send them)
    /// whose requests are allowed although they come from another site.
    public var trustedOrigins: Set<String>
    /// Says whether a request the rule refuses is allowed anyway (a verified bearer token's).
    public var isExempt: (@Sendable (Request) -> Bool)?

    public init(trustedOrigins: Set<String> = [], isExempt: (@Sendable (Request) -> Bool)? = nil) {
        self.trustedOrigins = trustedOrigins
        self.isExempt = isExempt
    }

    public func respond(to request: Request, next: (Request) throws -> Response) throws -> Response {
        if let refusal = refusal(of: request) { throw refusal }
        return try next(request)
    }

    /// The 403 `request` gets, or nil when it is allowed.
    public func refusal(of request: Request) -> HTTPError? {
        let method = request.method
        if method == .get || method == .head || method == .options { return nil }
        // An empty field counts as none, as Go's `Header.Get` reads it.
        switch request.headers["Sec-Fetch-Site"] {
        case "same-origin", "none":
            return nil
        case nil, "":
            guard let origin = request.headers["Origin"], !origin.isEmpty else { return nil }
            if let host = Self.host(ofOrigin: origin), let requestHost = request.headers["Host"], host == requestHost { return nil }
            return isAllowedAnyway(request) ? nil : HTTPError(.forbidden, Self.oldBrowserMessage)
        case .some:
            return isAllowedAnyway(request) ? nil : HTTPError(.forbidden, Self.crossSiteMessage)
        }
    }

    private func isAllowedAnyway(_ request: Request) -> Bool {
        if !trustedOrigins.isEmpty, let origin = request.headers["Origin"], trustedOrigins.contains(origin) { return true }
        return isExempt?(request) ?? false
    }

    /// The `host[:port]` of an origin (`https://example.com:8443` → `example.com:8443`), as Go's
    /// `url.Parse(origin).Host` reads it; nil for `null` and anything without `scheme://`.
    static func host(ofOrigin origin: String) -> Substring? {
        guard let separator = origin.firstRange(of: "://") else { return nil }
        var authority = origin[separator.upperBound...]
        if let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { authority = authority[..<end] }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return authority.isEmpty ? nil : authority
    }

    static let crossSiteMessage =
        "This request came from another site and was refused: a page elsewhere cannot change anything here. "
        + "Go back to this site's page and send it from there."
    static let oldBrowserMessage =
        "This request's Origin is not this site, and the browser did not say where it came from (no Sec-Fetch-Site): it was refused. "
        + "Send it from this site's own page, or update the browser."
}
