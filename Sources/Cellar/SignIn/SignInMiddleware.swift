import MicroHTTP

/// Reads each request's session, then checks it may go on: `--private`, and `view` or `query` on
/// the list it asks for. A request with `Authorization: Bearer` acts for its token's actor, within
/// the token's actions, and its cookies are not read; a token that does not verify is a 401.
/// Answers for a signed-in actor are `Cache-Control: private, no-cache`; every answer varies on
/// `Cookie` and `Authorization`.
///
/// `/healthz`, `/readyz`, `/metrics` and `/static/` never read the session: a probe or an asset
/// costs what it did.
struct SignInMiddleware: Middleware {
    let control: AccessControl

    func respond(to request: Request, next: (Request) throws -> Response) throws -> Response {
        let path = request.path
        if Self.skipsSession(path) { return try next(request) }
        let (configuration, generation) = control.currentWithGeneration
        var request = request
        let actor: SignedInActor?
        var token: BearerToken?
        switch control.bearer(of: request, in: configuration) {
        case .invalid:
            throw AccessControl.invalidToken
        case .token(let verified, let tokenActor):
            // A script's request: its cookies, if any, are not read.
            token = verified
            request.verifiedCredentials = VerifiedBearer(token: verified, actor: tokenActor, configuration: configuration, generation: generation)
            actor = tokenActor
        case .none:
            actor = control.proxiedActor(of: request, in: configuration) ?? control.actor(of: request, in: configuration)
        }
        request.actor = actor?.name
        if control.options.isPrivate, actor == nil, path != SignInPage.path, path != SignInPage.signOutPath {
            throw AccessControl.denial(for: request, signedIn: false)
        }
        if let (action, key, list) = requirement(of: request),
            !configuration.permissions.allows(actor, action, path: key) || token.map({ !$0.allows(action, path: list) }) == true
        {
            throw AccessControl.denial(for: request, signedIn: actor != nil)
        }
        var response = try next(request)
        let vary = response.headers["Vary"]
        // Two fields to add (a signed-in write's answer has neither): room for both at once, rather than the list grown for each.
        if actor != nil, vary == nil { response.headers.reserveCapacity(response.headers.count + 2) }
        if actor != nil { response.headers.replaceOrAdd(name: "Cache-Control", value: "private, no-cache") }
        // Without a `Vary` of its own, one is added without looking for it again.
        if let vary {
            response.headers.replaceOrAdd(name: "Vary", value: Self.varyingOnCredentials(vary))
        } else {
            response.headers.add(name: "Vary", value: Self.varyingOnCredentials(nil))
        }
        return response
    }

    /// `vary` with `Cookie, Authorization` added: constants for the values the lists send, rather
    /// than a string put together for every request.
    static func varyingOnCredentials(_ vary: String?) -> String {
        switch vary {
        case nil: "Cookie, Authorization"
        case "Accept, HX-Request": "Accept, HX-Request, Cookie, Authorization"
        case "Accept": "Accept, Cookie, Authorization"
        case let vary?: vary + ", Cookie, Authorization"
        }
    }

    static func skipsSession(_ path: String) -> Bool {
        path == "/healthz" || path == "/readyz" || path == "/metrics" || path.hasPrefix("/static/")
    }

    /// What a request needs: `query` on the SQL page and canned queries, `view` on a list, its
    /// JSON, its rows and live updates, and on its details (`/recipes/:id`); nothing elsewhere (the app's own pages check for themselves).
    /// The action, the key its grants are under (nil: the SQL page) and the list's path, which a token's actions name.
    func requirement(of request: Request) -> (Action, String?, String?)? {
        // The path's bytes where they are (a copy into an array allocated, for every request).
        let path = request.path.utf8
        if let found = path.withContiguousStorageIfAvailable({ requirement(ofPath: $0) }) { return found }
        return Array(path).withUnsafeBufferPointer { requirement(ofPath: $0) }
    }

    private func requirement(ofPath path: UnsafeBufferPointer<UInt8>) -> (Action, String?, String?)? {
        // `/-/query`, `/-/query.json`, `/-/queries/{name}`, under a mount's prefix too: a plain scan
        // (a generic substring search allocates, for every request).
        var index = 0
        while index + 8 <= path.count {
            if path[index] == UInt8(ascii: "/"), path[index + 1] == UInt8(ascii: "-"), path[index + 2] == UInt8(ascii: "/"),
                path[(index + 3)..<(index + 7)].elementsEqual("quer".utf8)
            {
                let rest = path[(index + 7)...]
                if rest.elementsEqual("y".utf8) || rest.starts(with: "y.".utf8) || rest.starts(with: "ies/".utf8) { return (.query, nil, nil) }
            }
            index += 1
        }
        // Byte compares with each list's path, kept as bytes: this runs for every request once sign-in is on.
        return control.withListPaths { lists in
            for list in lists where list.bytes.count > 1 && path.starts(with: list.bytes) {
                let rest = path[list.bytes.count...]
                if rest.isEmpty || rest.first == UInt8(ascii: ".") { return (.view, list.path, list.path) }
                // A detail (`/recipes/3`, a detail list's JSON and rows too): its own grants, or its list's.
                if rest.first == UInt8(ascii: "/") { return (.view, rest.count > 1 ? list.detailKey : list.path, list.path) }
            }
            return nil
        }
    }
}
