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
        let configuration = control.current
        var request = request
        let actor: SignedInActor?
        var token: BearerToken?
        switch control.bearer(of: request, in: configuration) {
        case .invalid:
            throw AccessControl.invalidToken
        case .token(let verified):
            // A script's request: its cookies, if any, are not read.
            token = verified
            request.verifiedCredentials = verified
            actor = configuration.actor(named: verified.actor)
        case .none:
            actor = control.proxiedActor(of: request, in: configuration) ?? control.actor(of: request, in: configuration)
        }
        request.actor = actor?.name
        if control.options.isPrivate, actor == nil, path != SignInPage.path, path != SignInPage.signOutPath {
            throw AccessControl.denial(for: request, signedIn: false)
        }
        if let (action, list) = requirement(of: request),
            !configuration.permissions.allows(actor, action, path: list)
                || token.map({ !$0.allows(action, path: list.map(Permissions.listPath(of:))) }) == true
        {
            throw AccessControl.denial(for: request, signedIn: actor != nil)
        }
        var response = try next(request)
        if actor != nil { response.headers.replaceOrAdd(name: "Cache-Control", value: "private, no-cache") }
        let vary = response.headers["Vary"]
        response.headers.replaceOrAdd(name: "Vary", value: vary.map { $0 + ", Cookie, Authorization" } ?? "Cookie, Authorization")
        return response
    }

    static func skipsSession(_ path: String) -> Bool {
        path == "/healthz" || path == "/readyz" || path == "/metrics" || path.hasPrefix("/static/")
    }

    /// What a request needs: `query` on the SQL page and canned queries, `view` on a list, its
    /// JSON, its rows and live updates, and on its details (`/recipes/:id`); nothing elsewhere (the app's own pages check for themselves).
    func requirement(of request: Request) -> (Action, String?)? {
        let path = Array(request.path.utf8)
        // `/-/query`, `/-/query.json`, `/-/queries/{name}`, under a mount's prefix too: a plain scan
        // (a generic substring search allocates, for every request).
        var index = 0
        while index + 8 <= path.count {
            if path[index] == UInt8(ascii: "/"), path[index + 1] == UInt8(ascii: "-"), path[index + 2] == UInt8(ascii: "/"),
                path[(index + 3)..<(index + 7)].elementsEqual("quer".utf8)
            {
                let rest = path[(index + 7)...]
                if rest.elementsEqual("y".utf8) || rest.starts(with: "y.".utf8) || rest.starts(with: "ies/".utf8) { return (.query, nil) }
            }
            index += 1
        }
        // Byte compares: this runs for every request once sign-in is on.
        for list in control.listPaths where list != "/" {
            let name = list.utf8
            guard path.count >= name.count, path.starts(with: name) else { continue }
            let rest = path.dropFirst(name.count)
            if rest.isEmpty || rest.first == UInt8(ascii: ".") { return (.view, list) }
            // A detail (`/recipes/3`, a detail list's JSON and rows too): its own grants, or its list's.
            if rest.first == UInt8(ascii: "/") { return (.view, rest.count > 1 ? Permissions.detailKey(of: list) : list) }
        }
        return nil
    }

}
