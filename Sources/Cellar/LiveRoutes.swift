import ByteWriters
import MicroHTTP

/// The router of an app whose lists come and go while it serves — a database's tables created or
/// dropped by a migration — as a table view's sections change with its data source: the index,
/// the navigation and the new lists' routes follow, without a restart.
///
/// What may add or remove lists registers a check (``addCheck(_:)``); the checks run before the
/// index is answered and when no route answers a path (a list that may have been added since), and
/// a check that finds a change calls ``update(_:)``, which changes the app and makes its router
/// again, swapped in whole. Other requests pay one lock to read the router, and only apps that
/// asked for live routes (``App/liveRoutes``) are served through it.
///
/// `@unchecked Sendable`: the app is changed only inside `update`, under `changes`, and requests
/// read the router, a value, under its own lock.
public final class LiveRoutes: HTTPResponder, @unchecked Sendable {
    /// The router as the app is now, and the paths of its index (which checks run before), swapped
    /// whole when the app changes.
    private final class Current: Sendable {
        let router: Router
        let indexPaths: Set<String>

        init(router: Router, indexPaths: Set<String>) {
            self.router = router
            self.indexPaths = indexPaths
        }
    }

    private weak var app: App?
    private let changes = Lock()
    private let current = Locked<Current?>(nil)
    private let checks = Locked<[@Sendable () -> Void]>([])
    /// How many times the router was made again: whether a check changed anything.
    private let revision = Locked<Int>(0)

    init(app: App) {
        self.app = app
    }

    /// Adds a check that finds lists added or removed since and calls ``update(_:)`` for them.
    public func addCheck(_ check: @escaping @Sendable () -> Void) {
        checks.withLock { $0.append(check) }
    }

    /// Changes the app (mounting lists, ``App/removeList(at:)``) and makes its router again: the
    /// requests that start after it returns see the change. Changes are made one at a time.
    public func update(_ change: (App) throws -> Void) rethrows {
        try changes.withLock {
            guard let app else { return }
            try change(app)
            let made = Self.current(of: app)
            current.withLock { $0 = made }
            revision.withLock { $0 += 1 }
        }
    }

    /// Makes the router from the app as it is now (serving starts with it).
    func reload() {
        update { _ in }
    }

    public func respond(to request: Request) throws -> Response {
        var matchedRoute: String?
        return try respond(to: request, matchedRoute: &matchedRoute)
    }

    public func respond(to request: Request, matchedRoute: inout String?) throws -> Response {
        guard var now = current.withLock({ $0 }) else { throw HTTPError(.serviceUnavailable, "The server is starting.") }
        if now.indexPaths.contains(request.path), runChecks() { now = current.withLock { $0 } ?? now }
        do {
            return try now.router.respond(to: request, matchedRoute: &matchedRoute)
        } catch let error as HTTPError where error.status == .notFound && matchedRoute == nil {
            // No route for this path: it may be a list added since the router was made.
            guard runChecks(), let changed = current.withLock({ $0 }) else { throw error }
            return try changed.router.respond(to: request, matchedRoute: &matchedRoute)
        }
    }

    /// Runs every check; true when one of them changed the routes.
    private func runChecks() -> Bool {
        let before = revision.withLock { $0 }
        for check in checks.withLock({ $0 }) { check() }
        return revision.withLock { $0 } != before
    }

    private static func current(of app: App) -> Current {
        let index = app.indexRoute.map { route in [route.path] + ListFormat.named.map { route.path(for: $0) } } ?? []
        return Current(router: app.makeRouter(), indexPaths: Set(index))
    }
}

extension App {
    /// The router that follows lists added and removed while the app serves; asking for it makes
    /// ``makeServingRouter()`` serve through it.
    public var liveRoutes: LiveRoutes {
        if let made = liveRoutesStorage { return made }
        let made = LiveRoutes(app: self)
        liveRoutesStorage = made
        return made
    }

    /// What `serve` answers through, inside the middleware: the app's ``liveRoutes`` when something
    /// asked for them (a mounted database, whose tables may come and go), else ``makeRouter()``.
    public func makeServingRouter() -> any HTTPResponder {
        guard let live = liveRoutesStorage else { return makeRouter() }
        live.reload()
        return live
    }

    /// Removes the list at `path` (a table dropped while serving): the index and navigation no
    /// longer show it once the router is made again (``LiveRoutes/update(_:)``).
    public func removeList(at path: String) {
        lists.removeAll { $0.path == path }
    }
}
