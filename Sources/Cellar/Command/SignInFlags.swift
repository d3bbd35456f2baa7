import ArgumentParser
import FoundationEssentials

/// `serve`'s sign-in flags: `--private`, `--session-lifetime`, `--secret-file` (or
/// `CELLAR_SECRET`), `--secure-cookies`. Accounts and permissions are in `--config`'s file.
struct SignInFlags: ParsableArguments {
    @Flag(
        name: .customLong("private"),
        help: "Every page but /-/signin, /healthz, /readyz and /static/ needs a signed-in account (env CELLAR_PRIVATE=1).")
    var isPrivate = EnvironmentVariables.flag("CELLAR_PRIVATE")

    @Option(
        name: .customLong("session-lifetime"),
        help: ArgumentHelp(
            "How long a session lasts from its sign-in: 7d, 12h, 30m or seconds (env CELLAR_SESSION_LIFETIME; default 7d).", valueName: "duration"))
    var sessionLifetimeOption: String?

    /// The flag, or the variable.
    var sessionLifetime: String? { sessionLifetimeOption ?? EnvironmentVariables.string("CELLAR_SESSION_LIFETIME") }

    @Option(
        name: .customLong("secret-file"),
        help: ArgumentHelp(
            "A file of session keys, one a line, the first signing, the others still accepted (after a rotation); each 32 characters or more. Or CELLAR_SECRET. Without either, sessions end with the process.",
            valueName: "path"))
    var secretFile: String?

    @Flag(
        name: .customLong("secure-cookies"),
        help: "Mark the session cookie Secure: the site is reached over HTTPS, directly or through a proxy (env CELLAR_SECURE_COOKIES=1).")
    var secureCookies = EnvironmentVariables.flag("CELLAR_SECURE_COOKIES")

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A proxy's address or range (10.0.0.0/8), repeatable: its X-Forwarded-For, X-Forwarded-Proto and --identity-header are believed (env CELLAR_TRUSTED_PROXIES, comma-separated).",
            valueName: "cidr"))
    var trustedProxyOptions: [String] = []

    @Option(
        name: .customLong("identity-header"),
        help: ArgumentHelp(
            "A header a trusted proxy that signs people in sets to the account's name (oauth2-proxy: X-Forwarded-User); ignored from other addresses (env CELLAR_IDENTITY_HEADER).",
            valueName: "name"))
    var identityHeaderOption: String?

    var trustedProxies: [String] {
        trustedProxyOptions.isEmpty
            ? (EnvironmentVariables.string("CELLAR_TRUSTED_PROXIES")?.split(separator: ",").map { String($0).filter { $0 != " " } } ?? [])
            : trustedProxyOptions
    }

    var identityHeader: String? { identityHeaderOption ?? EnvironmentVariables.string("CELLAR_IDENTITY_HEADER") }

    /// Seconds in `text`: a whole number, or one followed by d, h, m or s.
    static func seconds(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]
        if let unit = text.last.flatMap({ units[$0] }) { return Int64(text.dropLast()).map { $0 * unit } }
        return Int64(text)
    }

    func validate() throws {
        try EnvironmentVariables.validate("CELLAR_PRIVATE", "CELLAR_SECURE_COOKIES")
        for range in trustedProxies {
            do { _ = try TrustedProxies.Range(range) } catch { throw ValidationError("--trusted-proxy: \(error)") }
        }
        if identityHeader != nil, trustedProxies.isEmpty {
            throw ValidationError("--identity-header needs --trusted-proxy: the header is believed only from those addresses.")
        }
        if let sessionLifetime {
            guard let seconds = Self.seconds(sessionLifetime), seconds >= 60, seconds <= 366 * 86_400 else {
                throw ValidationError("--session-lifetime must be between 1m and 366d, as 7d, 12h, 30m or seconds (got '\(sessionLifetime)').")
            }
        }
    }

    /// Sets `app`'s sign-in options from the flags (those a flag names), after the app's own
    /// `configure` and before its check: the check makes the sign-in state, once.
    func apply(to app: App) throws {
        if isPrivate { app.signIn.isPrivate = true }
        if secureCookies { app.signIn.secureCookies = true }
        if let seconds = sessionLifetime.flatMap(Self.seconds) { app.signIn.sessionLifetime = .seconds(seconds) }
        if !trustedProxies.isEmpty { app.signIn.trustedProxies = TrustedProxies(try trustedProxies.map { try TrustedProxies.Range($0) }) }
        if let identityHeader { app.signIn.identityHeader = identityHeader }
        if let secretFile {
            app.signIn.keys = try SessionKeys.load(path: secretFile)
        } else if let secret = EnvironmentVariables.string("CELLAR_SECRET") {
            app.signIn.keys = try SessionKeys(text: secret)
        }
    }
}
