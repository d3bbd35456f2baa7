import ByteWriters
import Logging
import MicroHTTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The server's responder while some of the app's lists wait for what they need
/// (``App/mountWhenReachable(_:reason:_:)``), and the thread that mounts them when it can.
///
/// Until then it answers with the app's router as it is — static files, `/healthz`, `/metrics`,
/// the lists and routes already there — with `/readyz` also failing a check for each awaited
/// mount, and every other `GET` a 503 with `Retry-After`, as HTML or JSON as the request asks.
/// A thread (``start(onFailure:)``) makes each mount's attempt again after 0.5 s, then after twice
/// as long each time, up to 5 s; once all are mounted it checks the app (``App/validate()``) as a
/// start does, and from then on every request goes to the app's whole router, made then — the
/// same answers as a server started with everything there. An attempt's error, or a failed
/// check, is the app's start failing: logged as critical, and handed to `onFailure`.
///
/// The swap is one `AtomicLazyReference`, set once: a request pays one atomic load. Only a server
/// started with a deferred mount uses this type; the others are given the router itself.
///
/// ```swift
/// let start = DeferredStart(app: app)
/// let server = Server(configuration: configuration(errorRenderer: start.errorRenderer), responder: start, logger: logger)
/// try server.start()
/// try start.start { error in /* stop the program: the app cannot start */ }
/// ```
///
/// `@unchecked Sendable`: the app and the mounts still waiting are used by the thread alone once it
/// has started (and before, by the thread that made this); requests read only the routers, which are
/// values set before they are shared, and the state `lock` guards.
public final class DeferredStart: HTTPResponder, @unchecked Sendable {
    /// The app's router and error pages, made once every mount is done.
    private final class Complete: Sendable {
        let router: Router
        let renderError: ServerConfiguration.ErrorRenderer

        init(router: Router, renderError: @escaping ServerConfiguration.ErrorRenderer) {
            self.router = router
            self.renderError = renderError
        }
    }

    /// The seconds before the first attempt again, and the longest wait between two.
    public static let firstDelay = 0.5
    public static let longestDelay = 5.0
    /// How often a mount that is still not reachable is logged again when its reason does not change.
    static let repeatedWarningInterval = Duration.seconds(60)

    private let app: App
    private var waitingMounts: [DeferredMount]
    private let logger: Logger
    private let waiting: Router
    private let waitingErrorRenderer: ServerConfiguration.ErrorRenderer
    private let complete = AtomicLazyReference<Complete>()

    private let lock = Lock()
    private let wake = Condition()
    /// Guarded by `lock`.
    private var started = false
    private var stopped = false
    private var failureFound: (any Error)?

    /// Takes the app's deferred mounts (``App/deferredMounts``), and makes the router that answers
    /// until they are mounted.
    public init(app: App) {
        self.app = app
        waitingMounts = app.deferredMounts
        app.deferredMounts = []
        logger = app.logger
        waitingErrorRenderer = app.errorRenderer
        var router = app.makeRouter()
        let names = waitingMounts.map(\.name)
        let checks =
            app.readinessChecks
            + names.map { name in
                ReadinessCheck(name) { throw HTTPError(.serviceUnavailable, "not reached since the server started; trying again") }
            }
        router.get("/readyz") { _ in ReadinessCheck.response(for: checks) }
        let notYet = HTTPError(
            .serviceUnavailable,
            "Not available yet: \(names.joined(separator: ", ")) cannot be reached; this is served as soon as it can be. Try again shortly.",
            headers: ["Retry-After": String(ReadinessCheck.retryAfterSeconds)])
        router.get("/*") { _ in throw notYet }
        waiting = router
    }

    /// Whether every deferred mount is done and the app's whole router answers.
    public var isComplete: Bool { complete.load() != nil }

    /// Why the app could not start after all (an attempt's error, or ``App/validate()``'s), if so.
    public var failure: (any Error)? { lock.withLock { failureFound } }

    /// The routes that answer now.
    public var routes: [(method: HTTPMethod, pattern: String)] { (complete.load()?.router ?? waiting).routes }

    /// The error pages of the app as it is now, for ``ServerConfiguration/errorRenderer``: the
    /// whole app's navigation once it is mounted.
    public var errorRenderer: ServerConfiguration.ErrorRenderer {
        { [self] error, request in (complete.load()?.renderError ?? waitingErrorRenderer)(error, request) }
    }

    public func respond(to request: Request) throws -> Response {
        var matchedRoute: String?
        return try respond(to: request, matchedRoute: &matchedRoute)
    }

    public func respond(to request: Request, matchedRoute: inout String?) throws -> Response {
        if let complete = complete.load() { return try complete.router.respond(to: request, matchedRoute: &matchedRoute) }
        return try waiting.respond(to: request, matchedRoute: &matchedRoute)
    }

    /// Starts the thread that mounts what is awaited (once; later calls do nothing).
    ///
    /// - Parameter onFailure: called on that thread when the app cannot start after all.
    /// - Throws: ``Threads/StartError`` when no thread can be made.
    public func start(onFailure: @escaping @Sendable (any Error) -> Void) throws {
        let first = lock.withLock {
            defer { started = true }
            return !started
        }
        guard first else { return }
        for mount in waitingMounts {
            logger.warning(
                "starting without what some lists need: not ready, and answering them 503 until it can be reached",
                metadata: ["awaiting": "\(mount.name)", "reason": "\(mount.reason)"])
        }
        let thread = try Threads.start { [self] in run(onFailure: onFailure) }
        pthread_detach(thread)
    }

    /// Stops the thread at its next wait; an attempt under way ends by its own deadline first, but
    /// nothing waits for it (a stopping server need not).
    public func stop() {
        lock.withLock {
            stopped = true
            wake.signal()
        }
    }

    private func run(onFailure: @Sendable (any Error) -> Void) {
        var delay = Self.firstDelay
        // The reasons the start logged: the same one is not logged again for a while.
        var lastWarning = Dictionary(waitingMounts.map { ($0.name, (reason: $0.reason, time: ContinuousClock.now)) }) { first, _ in first }
        while waitWhileRunning(seconds: delay) {
            do {
                waitingMounts = try waitingMounts.filter { mount in
                    switch try mount.attempt(app) {
                    case .mounted:
                        logger.info("reached: its lists are mounted", metadata: ["awaiting": "\(mount.name)"])
                        return false
                    case .notYet(let reason):
                        let last = lastWarning[mount.name]
                        if last?.reason != reason || last.map({ ContinuousClock.now - $0.time >= Self.repeatedWarningInterval }) == true {
                            logger.warning("still not reachable; trying again", metadata: ["awaiting": "\(mount.name)", "reason": "\(reason)"])
                            lastWarning[mount.name] = (reason, .now)
                        }
                        return true
                    }
                }
                guard waitingMounts.isEmpty else {
                    delay = min(delay * 2, Self.longestDelay)
                    continue
                }
                guard !isStopped else { return }
                try app.validate()
                _ = complete.storeIfNil(Complete(router: app.makeRouter(), renderError: app.errorRenderer))
                logger.info("ready: every list is mounted")
                return
            } catch {
                logger.critical("cannot start", metadata: ["error": "\(error)"])
                lock.withLock { failureFound = error }
                onFailure(error)
                return
            }
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Waits `seconds` unless stopped meanwhile; false when stopped.
    private func waitWhileRunning(seconds: Double) -> Bool {
        let deadline = Condition.deadline(after: .milliseconds(Int(seconds * 1000)))
        return lock.withLock {
            while !stopped {
                if !lock.wait(for: wake, until: deadline) { break }
            }
            return !stopped
        }
    }
}
