import MicroHTTP

extension App {
    /// Whether the app signs people in: it has accounts, permissions for someone other than
    /// `anyone`, or is private.
    public var usesSignIn: Bool {
        !access.accounts.isEmpty || !access.permissions.grantsOnlyToAnyone || signIn.isPrivate || signIn.identityHeader != nil
    }

    /// The accounts, permissions and sessions at run time, once the router is made (nil when the
    /// app does not sign people in). Page handlers ask it what a request's actor may do:
    ///
    /// ```swift
    /// app.page("/notes/new", title: "New note", .get, .post) { request, page in
    ///     try app.accessControl?.require(request, .insert, on: "/notes")
    ///     …
    /// }
    /// ```
    public var accessControl: AccessControl? {
        guard usesSignIn else { return nil }
        if let accessControlStorage { return accessControlStorage }
        var options = signIn
        let keys: SessionKeys
        if let given = signIn.keys {
            keys = given
        } else if let made = try? SessionKeys.ephemeral() {
            keys = made
            logger.warning(
                "no session secret (CELLAR_SECRET or --secret-file): a key was made for this process, so sessions will not survive a restart and are not shared by replicas"
            )
        } else {
            // No randomness: no one can sign in, and a private site stays closed.
            logger.critical("cannot make a session key: no one can sign in")
            keys = SessionKeys.none
            options.isPrivate = true
        }
        let control = AccessControl(configuration: keys.keys.isEmpty ? AccessConfiguration() : access, keys: keys, options: options)
        accessControlStorage = control
        return control
    }

    /// Reads `--config`'s accounts, permissions and revoked tokens again and puts them in force
    /// (`serve` does on SIGHUP): sessions of removed accounts or changed passwords end at their
    /// next request. A file that cannot be read or used is logged, and the previous ones stay.
    /// What the app set from Swift is replaced by the file's; an app that did not sign people in
    /// at start does not begin to.
    public func reloadAccessConfiguration() {
        guard let path = databaseConfigurationPath, let control = accessControlStorage else {
            logger.notice("SIGHUP: no accounts to reload (no --config, or sign-in was off at start)")
            return
        }
        do {
            let configuration = try AccessConfiguration.load(path: path)
            control.replace(with: configuration)
            logger.notice(
                "reloaded accounts and permissions",
                metadata: ["file": "\(path)", "accounts": "\(configuration.accounts.count)", "lists": "\(configuration.permissions.grants.count)"])
        } catch {
            logger.error("cannot reload accounts and permissions; the previous ones stay", metadata: ["error": "\(error)"])
        }
    }

    /// The sign-in middleware, when the app signs people in.
    func signInMiddleware() -> (any Middleware)? {
        guard let control = accessControl else { return nil }
        return SignInMiddleware(control: control)
    }

    /// `/-/signin` and `/-/signout` on `router`, when the app signs people in.
    func addSignInRoutes(to router: inout Router, snapshot: Snapshot) {
        guard let control = accessControl else { return }
        control.listPaths = lists.map(\.path)
        let signIn = SignInPage(control: control, logger: snapshot.logger, registry: snapshot.registry)
        let page = PageResponder(
            path: SignInPage.path, title: "Sign in", handler: { request, page in try signIn.respond(to: request, page: &page) }, app: snapshot)
        router.get(SignInPage.path) { try page.respond(to: $0) }
        router.post(SignInPage.path) { try page.respond(to: $0) }
        router.post(SignInPage.signOutPath) { signIn.signOut($0) }
    }
}
