import MicroHTTP

extension AccessControl {
    /// The lists among `paths` that `request`'s actor may not view. A page leaves them out —
    /// links, navigation, labels, counts, a schema's references, the tables SQL may read — so that
    /// a table one may not see is absent, not only refused. Empty, at the cost of one check, while
    /// every list is viewable by anyone.
    public func unviewable(_ paths: some Collection<String>, by request: Request) -> Set<String> {
        // The common case first: nothing is hidden from anyone, and no actor's token can narrow it.
        if openToAnyone.load(ordering: .relaxed), request.actor == nil || request.headers["Authorization"] == nil { return [] }
        let (configuration, actor, token) = rights(of: request)
        var hidden = Set<String>()
        for path in paths where !configuration.permissions.allows(actor, .view, path: path) || token?.allows(.view, path: path) == false {
            hidden.insert(path)
        }
        return hidden
    }

    /// The actions `request`'s actor may do on the list at `path`, as one short text
    /// (`view,update`): what a watched window is keyed by beside its query, so that a window shared
    /// by its watchers is rendered for one set of rights, never with another actor's controls.
    /// Everyone with the same rights on the list shares one window.
    func allowedActions(_ request: Request, on path: String) -> String {
        let (configuration, actor, token) = rights(of: request)
        var allowed: [String] = []
        for action in Action.allCases where action != .query {
            guard configuration.permissions.allows(actor, action, path: path) else { continue }
            if let token, !token.allows(action, path: path) { continue }
            allowed.append(action.rawValue)
        }
        return allowed.joined(separator: ",")
    }

    /// When the credentials `request` acts with stop being accepted, in seconds since 1970: its
    /// session's absolute end, or its bearer token's expiry; nil for an anonymous request or an
    /// actor a trusted proxy names (the proxy decides how long that lasts). A live list's stream
    /// ends then: its client reconnects signed out.
    func credentialsExpiry(of request: Request) -> Int64? {
        guard request.actor != nil else { return nil }
        let configuration = current
        switch credentials(of: request, in: configuration) {
        case .token(let token, _): return token.expiresAt
        case .invalid: return nil
        case .none: break
        }
        if proxiedActor(of: request, in: configuration) != nil { return nil }
        guard let issuedAt = sessionIssueTime(of: request, in: configuration) else { return nil }
        return issuedAt + lifetimeSeconds
    }

    /// What `request` may do by: the configuration now, its actor with its groups, and its bearer
    /// token, which narrows the actor's grants.
    private func rights(of request: Request) -> (AccessConfiguration, SignedInActor?, BearerToken?) {
        let configuration = current
        let actor = request.actor.map { configuration.actor(named: $0) ?? SignedInActor(name: $0) }
        guard request.headers["Authorization"] != nil, case .token(let token, _) = credentials(of: request, in: configuration) else {
            return (configuration, actor, nil)
        }
        return (configuration, actor, token)
    }
}
