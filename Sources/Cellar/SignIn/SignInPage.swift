import ByteWriters
import Logging
import MicroHTTP
import TableKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `/-/signin` (the form, and its POST) and `POST /-/signout`.
///
/// An unknown account and a wrong password get the same answer, after the same work (a dummy hash
/// of the same cost). Failures are limited per address and slow the account's next tries
/// (``LoginRateLimiter``). Neither the password, its hash nor the cookie is ever logged.
struct SignInPage: Sendable {
    static let path = "/-/signin"
    static let signOutPath = "/-/signout"
    static let failureMessage = "That account name and password do not match."

    let control: AccessControl
    let logger: Logger
    /// Where the form's field cells are dequeued from.
    let registry: ReuseRegistry

    /// The form, or the POST's answer: a 303 to `next` with the session cookie, or the form again
    /// with the failure (401).
    func respond(to request: Request, page: inout PageContent) throws -> HTTPStatus {
        let next = NextPath.safe(request.query["next"])
        guard request.method == .post else {
            if request.actor != nil { return page.redirect(to: next) }
            try writeForm(next: next, account: "", failed: false, into: &page)
            return .ok
        }
        let form = try request.formItems()
        let name = form["account"] ?? ""
        let password = form["password"] ?? ""
        let returnTo = NextPath.safe(form["next"] ?? request.query["next"])
        let address = control.clientKey(of: request)
        if let wait = control.limiter.retryAfter(address: address) {
            logger.warning("sign-in refused: too many failures", metadata: ["request_id": "\(request.id)", "address": "\(address)"])
            throw HTTPError(
                .tooManyRequests, "Too many failed sign-ins from your address. Try again in \(wait) seconds.",
                headers: ["Retry-After": "\(wait)"])
        }
        let configuration = control.current
        let isName = Account.isValidName(name)
        let account = isName ? configuration.accounts[name] : nil
        // Any name is slowed by its failures, whether its account exists or not.
        if isName {
            let delay = control.limiter.delay(account: name)
            if delay > .zero { Self.sleep(delay) }
        }
        let hash = account?.passwordHash ?? dummyHash(configuration)
        guard let matches = control.limiter.withHashSlot({ hash.verifies(password) }) else {
            throw HTTPError(.serviceUnavailable, "The server is busy checking other sign-ins. Try again in a moment.", headers: ["Retry-After": "1"])
        }
        guard let account, matches else {
            control.limiter.recordFailure(address: address, account: isName ? name : nil)
            logger.notice("sign-in failed", metadata: ["request_id": "\(request.id)", "address": "\(address)"])
            if request.prefersJSON { throw HTTPError(.unauthorized, Self.failureMessage) }
            try writeForm(next: returnTo, account: name, failed: true, into: &page)
            page.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
            return .unauthorized
        }
        control.limiter.recordSuccess(account: name)
        let value = SessionCookie.value(actor: name, issuedAt: control.now(), account: account, keys: control.keys)
        page.headers.add(
            name: "Set-Cookie", value: SessionCookie.setCookie(value, secure: control.isSecure(request), maxAge: control.lifetimeSeconds))
        page.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        logger.info("signed in", metadata: ["request_id": "\(request.id)", "actor": "\(name)"])
        return page.redirect(to: returnTo)
    }

    /// `POST /-/signout`: the cookie cleared, then the home page.
    func signOut(_ request: Request) -> Response {
        var headers: HTTPHeaders = ["Location": "/", "Cache-Control": "no-store"]
        headers.add(name: "Set-Cookie", value: SessionCookie.setCookie(nil, secure: control.isSecure(request), maxAge: 0))
        if let actor = request.actor { logger.info("signed out", metadata: ["request_id": "\(request.id)", "actor": "\(actor)"]) }
        return Response(status: .seeOther, headers: headers, body: .empty)
    }

    /// What an unknown account is checked against: a hash as costly as the accounts' own.
    private func dummyHash(_ configuration: AccessConfiguration) -> PasswordHash {
        let costliest = configuration.accounts.values.map(\.passwordHash).max { $0.logCost < $1.logCost }
        return (costliest ?? Self.defaultDummy).dummy()
    }

    private static let defaultDummy = PasswordHash(
        logCost: PasswordHash.defaultLogCost, blockSize: 8, parallelism: 1, salt: [UInt8](repeating: 0, count: 16),
        hash: [UInt8](repeating: 0, count: 32))

    /// The form of field cells, as every form of the site is (``FormPage``): the account, the
    /// password, and `next` hidden. A failure is said the forms' way: the summary at the top, the
    /// message on the password field (the one to type again: it is never written back), which is
    /// `aria-invalid` and tied to it by `aria-describedby`.
    private func writeForm(next: String, account: String, failed: Bool, into page: inout PageContent) throws {
        let errors = failed ? ["password": Self.failureMessage] : [:]
        let form = Self.form.filled(values: ["account": account], errors: errors)
        let formPage = FormPage(
            title: "Sign in", path: Self.path, action: Self.path, form: form, errors: errors, hiddenFields: [("next", next)])
        page.mainClass = "page-view form-view"
        if failed { page.documentTitle = "Error: " + page.title }
        try formPage.writeContent(into: &page.html, registry: registry)
    }

    /// The fields: a name and a password, with the browser's hints for filling them in.
    static let form = FormTable(
        sections: [
            FormSection(fields: [
                .text("account", label: "Account", isRequired: true, maxLength: 64, autocomplete: "username"),
                .secure("password", label: "Password", isRequired: true),
            ])
        ], submitTitle: "Sign in")

    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&time, &remaining) != 0 && errno == EINTR { time = remaining }
    }
}
