/// Lists an app mounts once something outside the process can be reached — a database that could
/// not be at start — while the server answers without them.
///
/// ```swift
/// app.mountWhenReachable("database books", reason: "\(error)") { app in
///     guard let database = try? Database.open(url) else { return .notYet(reason: "not reachable") }
///     try app.mount(database)
///     return .mounted
/// }
/// ```
///
/// `serve` then starts all the same, through a ``DeferredStart``: `/healthz` answers 200, `/readyz`
/// 503 naming what is awaited, and every path the app does not answer yet 503 with `Retry-After`;
/// a thread calls ``attempt`` again, with a backoff, until it returns ``Outcome/mounted``, and the
/// server answers with the whole app from then on. CellarDatabase's
/// `mountDatabaseFromCommandLine()` defers a PostgreSQL database that cannot be reached at start.
public struct DeferredMount {
    /// What an attempt came to.
    public enum Outcome: Sendable, Equatable {
        /// The lists are mounted: the attempt is not made again.
        case mounted
        /// Not reachable yet, for this reason (for the log; it must not hold secrets). The attempt
        /// must have left the app as it found it: it is made again.
        case notYet(reason: String)
    }

    /// What is awaited, as `/readyz` names its check (`database books`): public, so no secrets.
    public let name: String
    /// Why it could not be mounted at start (for the log; no secrets).
    public let reason: String
    /// Mounts the lists on the app, or says why not yet; an error it throws is one a start would
    /// end on (a configuration that does not fit the database): the server logs it and exits.
    let attempt: (App) throws -> Outcome
}

extension App {
    /// Mounts lists later, once `attempt` can (see ``DeferredMount``): `serve` starts without them,
    /// not ready, and tries `attempt` again in the background until it returns `.mounted`.
    ///
    /// - Parameters:
    ///   - name: what is awaited, as `/readyz` names it (`database books`); no secrets.
    ///   - reason: why it cannot be mounted now, for the log; no secrets.
    ///   - attempt: mounts the lists on the app it is given, or returns `.notYet` having changed
    ///     nothing; throws for an error that should end the program.
    public func mountWhenReachable(_ name: String, reason: String, _ attempt: @escaping (App) throws -> DeferredMount.Outcome) {
        deferredMounts.append(DeferredMount(name: name, reason: reason, attempt: attempt))
    }
}
