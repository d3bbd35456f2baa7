import ByteWriters
import FoundationEssentials
import Logging
import MicroHTTP
import Synchronization

/// Sign-in at run time: the accounts and permissions in force (replaced whole by a reload), the
/// session keys, the sign-in limiter; shared by the middleware and the sign-in pages.
public final class AccessControl: Sendable {
    private let configuration: Locked<AccessConfiguration>
    let keys: SessionKeys
    let options: SignInOptions
    let limiter: LoginRateLimiter
    private let lists = Locked<[ListPath]>([])
    private let verified = VerifiedSessions()
    private let verifiedTokens = VerifiedTokens()
    /// Whether every list is viewable by anyone in the configuration in force: then no page need
    /// ask which lists its actor may not view (``unviewable(_:by:)``).
    let openToAnyone: Atomic<Bool>
    /// How many times the accounts and permissions were replaced (reloads): mixed into the
    /// validators of pages (``validatorInputs(of:list:into:)``), so that after a reload no 304
    /// answers a page whose navigation or controls the new grants change.
    let generation = Atomic<UInt64>(0)
    /// Seconds since 1970; a test's clock in tests.
    let now: @Sendable () -> Int64

    init(
        configuration: AccessConfiguration, keys: SessionKeys, options: SignInOptions,
        now: @escaping @Sendable () -> Int64 = AccessControl.epochSeconds
    ) {
        self.configuration = Locked(configuration)
        self.keys = keys
        self.options = options
        self.now = now
        lifetimeSeconds = options.sessionLifetime.components.seconds
        openToAnyone = Atomic(configuration.permissions.everyListViewableByAnyone)
        limiter = LoginRateLimiter(maximumHashesInFlight: ServerConfiguration.activeProcessorCount)
    }

    /// The accounts and permissions now.
    public var current: AccessConfiguration { configuration.withLock { $0 } }

    /// The accounts and permissions now, and their ``generation``.
    var currentWithGeneration: (AccessConfiguration, UInt64) {
        configuration.withLock { ($0, generation.load(ordering: .relaxed)) }
    }

    /// Replaces the accounts and permissions (a reload): sessions of removed accounts, or of
    /// changed passwords, end at their next request.
    public func replace(with newConfiguration: AccessConfiguration) {
        configuration.withLock { configuration in
            configuration = newConfiguration
            openToAnyone.store(newConfiguration.permissions.everyListViewableByAnyone, ordering: .relaxed)
            generation.add(1, ordering: .relaxed)
        }
    }

    /// The app's lists' paths, longest first (a detail's path starts with its list's): set by each
    /// ``App/makeRouter()``, the last of which (a deferred start's) has every list.
    var listPaths: [String] {
        get { lists.withLock { $0.map(\.path) } }
        set { lists.withLock { $0 = newValue.sorted { $0.utf8.count > $1.utf8.count }.map(ListPath.init) } }
    }

    /// A list's path and its bytes, which the middleware compares with every request's path, and
    /// the key of its details' grants (``Permissions/detailKey(of:)``), made once.
    struct ListPath {
        let path: String
        let bytes: [UInt8]
        let detailKey: String

        init(_ path: String) {
            self.path = path
            bytes = Array(path.utf8)
            detailKey = Permissions.detailKey(of: path)
        }
    }

    /// Calls `body` with the lists' paths, longest first, lent under the lock (no copy of the array
    /// for every request).
    func withListPaths<Result>(_ body: ([ListPath]) -> Result) -> Result {
        lists.withLock { body($0) }
    }

    /// 401 for a bearer token that does not verify (RFC 6750).
    static let invalidToken = HTTPError(
        .unauthorized,
        "The bearer token is not valid: it is malformed, expired or revoked, or its account is gone. Make a new one with `token create`.",
        headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\""])

    static let epochSeconds: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    /// ``SignInOptions/sessionLifetime`` in seconds, worked out once (a `Duration`'s components
    /// are 128-bit arithmetic, on every signed-in request).
    let lifetimeSeconds: Int64

    /// What a request's `Authorization: Bearer` header holds: nothing (no such header), a token
    /// that verifies, with its actor, or one that does not (bad, expired, revoked, its account gone).
    enum Credentials {
        case none
        case token(BearerToken, SignedInActor)
        case invalid
    }

    func bearer(of request: Request, in configuration: AccessConfiguration) -> Credentials {
        guard let header = request.headers["Authorization"], let text = BearerToken.credentials(in: header) else { return .none }
        let token: BearerToken
        if let known = verifiedTokens.token(for: text) {
            token = known
        } else {
            guard let verified = BearerToken.verified(text, keys: keys, now: now()) else { return .invalid }
            verifiedTokens.remember(text, verified)
            token = verified
        }
        return checked(token, in: configuration)
    }

    /// `token` if `configuration` still accepts it (not expired, not revoked, its account there), with its actor.
    private func checked(_ token: BearerToken, in configuration: AccessConfiguration) -> Credentials {
        guard now() < token.expiresAt, !configuration.revokedTokens.contains(token.id), let actor = configuration.actor(named: token.actor) else {
            return .invalid
        }
        return .token(token, actor)
    }

    /// ``bearer(of:in:)`` for a request the middleware has seen: the token it verified, checked
    /// again only against `configuration` (an account removed, a token revoked or expired since)
    /// rather than verified a second time; a request it has not seen is verified here.
    func credentials(of request: Request, in configuration: AccessConfiguration) -> Credentials {
        guard let verified = request.verifiedCredentials as? VerifiedBearer else { return bearer(of: request, in: configuration) }
        return checked(verified.token, in: configuration)
    }

    /// Whether a request from a trusted proxy says it came over HTTPS, or the app says every one does.
    func isSecure(_ request: Request) -> Bool {
        if options.secureCookies { return true }
        guard let remote = request.remoteAddress, options.trustedProxies.contains(remote) else { return false }
        return request.headers["X-Forwarded-Proto"]?.lowercased() == "https"
    }

    /// The client's address as the sign-in limiter counts it (``TrustedProxies/clientKey(remote:forwardedFor:)``).
    func clientKey(of request: Request) -> String {
        options.trustedProxies.clientKey(remote: request.remoteAddress, forwardedFor: request.headers["X-Forwarded-For"])
    }

    /// The actor a trusted proxy names in the identity header, if the request came from one.
    func proxiedActor(of request: Request, in configuration: AccessConfiguration) -> SignedInActor? {
        guard let header = options.identityHeader, let remote = request.remoteAddress, options.trustedProxies.contains(remote),
            let name = request.headers[header], Account.isValidName(name)
        else { return nil }
        return configuration.actor(named: name) ?? SignedInActor(name: name)
    }

    /// Whether `request` carries a bearer token that verifies: such a request is not a browser's,
    /// and cross-origin protection lets it through.
    public func hasVerifiedToken(_ request: Request) -> Bool {
        if case .token = bearer(of: request, in: current) { return true }
        return false
    }

    /// The actor a request's session cookie names, if it verifies.
    func actor(of request: Request, in configuration: AccessConfiguration) -> SignedInActor? {
        guard let session = session(of: request, in: configuration) else { return nil }
        return SignedInActor(name: session.actor, groups: session.groups)
    }

    /// When the session `request`'s cookie carries was signed in, if the cookie verifies.
    func sessionIssueTime(of request: Request, in configuration: AccessConfiguration) -> Int64? {
        session(of: request, in: configuration)?.issuedAt
    }

    /// The session a request's cookie carries, with its account's groups now, if it verifies.
    ///
    /// A cookie that verified is remembered (``VerifiedSessions``) with the account's hash at the
    /// time: its next requests check only that it has not expired and that the hash is the same,
    /// without two HMACs and the decoding.
    private func session(of request: Request, in configuration: AccessConfiguration) -> (actor: String, issuedAt: Int64, groups: Set<String>)? {
        guard let value = SessionCookie.find(in: request.headers["Cookie"]) else { return nil }
        let now = now()
        if let known = verified.session(for: value), let account = configuration.accounts[known.actor],
            account.passwordHash == known.passwordHash, known.issuedAt <= now + 300, now - known.issuedAt < lifetimeSeconds
        {
            return (known.actor, known.issuedAt, account.groups)
        }
        guard let session = SessionCookie.verified(value, keys: keys, now: now, lifetime: lifetimeSeconds, accounts: configuration.accounts),
            let account = configuration.accounts[session.actor]
        else { return nil }
        verified.remember(value, VerifiedSessions.Session(actor: session.actor, issuedAt: session.issuedAt, passwordHash: account.passwordHash))
        return (session.actor, session.issuedAt, account.groups)
    }

    /// The name of the actor `request` acts for, found as ``SignInMiddleware`` finds it (a bearer
    /// token that verifies, a trusted proxy's header, the session cookie), for an answer made
    /// outside the middleware: an error page, which the server renders from the request as it
    /// arrived. Nil for anyone else, a token that does not verify included.
    func actorName(identifying request: Request) -> String? {
        let configuration = current
        switch bearer(of: request, in: configuration) {
        case .token(let token, _): return token.actor
        case .invalid: return nil
        case .none: return (proxiedActor(of: request, in: configuration) ?? actor(of: request, in: configuration))?.name
        }
    }

    /// The actor `request` acts for, as the middleware set it, with its groups read now.
    public func actor(of request: Request) -> SignedInActor? {
        guard let name = request.actor else { return nil }
        return current.actor(named: name) ?? SignedInActor(name: name)
    }

    /// Whether `request`'s actor may do `action` on the list at `path` (nil: the SQL page).
    public func permits(_ request: Request, _ action: Action, on path: String?) -> Bool {
        // The token, actor and configuration the middleware checked, while no reload has replaced
        // that configuration: its account and revocations are as they were; only expiry is checked again.
        if let verified = request.verifiedCredentials as? VerifiedBearer, verified.generation == generation.load(ordering: .relaxed),
            request.actor == verified.actor.name
        {
            return now() < verified.token.expiresAt && verified.configuration.permissions.allows(verified.actor, action, path: path)
                && verified.token.allows(action, path: path)
        }
        let configuration = current
        let actor = request.actor.map { configuration.actor(named: $0) ?? SignedInActor(name: $0) }
        guard configuration.permissions.allows(actor, action, path: path) else { return false }
        // A token grants what it names and its actor may do, no more.
        switch credentials(of: request, in: configuration) {
        case .token(let token, _): return token.allows(action, path: path)
        case .invalid: return false
        case .none: return true
        }
    }

    /// Throws what a request gets when it may not do `action` on `path`: for an anonymous browser
    /// a 303 to sign-in, else 401 (not signed in) or 403 (signed in, not allowed).
    public func require(_ request: Request, _ action: Action, on path: String?) throws(HTTPError) {
        guard !permits(request, action, on: path) else { return }
        throw Self.denial(for: request, signedIn: request.actor != nil)
    }

    /// A refusal: 303 to sign-in with `next` for an anonymous request that asks for HTML (its
    /// `Accept` names `text/html`, as a browser's navigation does; curl's `*/*` does not), 401
    /// for another anonymous one, 403 for a signed-in one.
    static func denial(for request: Request, signedIn: Bool) -> HTTPError {
        if signedIn { return HTTPError(.forbidden, "Your account may not do this. Ask an administrator for access.") }
        let wantsHTML =
            (request.method == .get || request.method == .head) && !request.prefersJSON && !request.path.hasSuffix(".json")
            && request.headers["Accept"]?.contains("text/html") == true
        if wantsHTML {
            let target = request.path + (request.rawQuery.map { "?" + $0 } ?? "")
            var query = QueryItems()
            query.append(name: "next", value: target)
            return HTTPError(.seeOther, "Sign in to see this page.", headers: ["Location": "/-/signin?" + query.percentEncoded])
        }
        return HTTPError(.unauthorized, "Sign in first: this needs a signed-in account.")
    }
}

/// How sign-in behaves: set on ``App/signIn`` before the server starts (`--private`,
/// `--session-lifetime`, `--secret-file` fill it in).
public struct SignInOptions: Sendable {
    /// Every page but `/-/signin`, `/healthz`, `/readyz` and `/static/` needs a signed-in actor.
    public var isPrivate = false
    /// How long a session lasts from its sign-in, whatever is done meanwhile.
    public var sessionLifetime: Duration = .seconds(7 * 24 * 3600)
    /// The session keys; nil: one made at start (sessions end with the process).
    public var keys: SessionKeys?
    /// Whether cookies are marked `Secure`: the site is reached over HTTPS (directly, or through a
    /// proxy that terminates TLS).
    public var secureCookies = false
    /// Proxies whose `X-Forwarded-For`, `X-Forwarded-Proto` and identity header are believed.
    public var trustedProxies = TrustedProxies()
    /// A header that names the signed-in account, set by a trusted proxy that signs people in;
    /// ignored from any other address.
    public var identityHeader: String?

    public init() {}
}
