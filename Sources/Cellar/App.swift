import ByteWriters
import FoundationEssentials
import Logging
import MicroHTTP
import TableKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A Cellar application: the cell registry, the lists mounted on paths, and the site around them.
///
/// ```swift
/// let app = App(publicDirectory: "Public")
/// try app.register(EngineerCell.self)
/// try app.registerPrototypes()
/// app.list("/people", summary: "10,000 people") { context in PeopleController(context: context) }
/// ```
///
/// Serve it with ``run(siteName:version:arguments:_:)``, which makes the app, calls a closure that
/// registers cells and mounts lists like the lines above, checks it and serves it. To run the
/// server yourself instead, ``makeResponder()`` freezes what the app holds into an immutable
/// ``Router`` inside the app's middleware; give a `Server` that responder, ``errorRenderer``,
/// ``defaultHeaders`` and ``metrics``, and the app's ``bufferedResponseBytes`` in its configuration:
///
/// ```swift
/// let configuration = ServerConfiguration(
///     port: 8080, defaultHeaders: app.defaultHeaders, errorRenderer: app.errorRenderer, bufferedResponseBytes: app.bufferedResponseBytes)
/// let server = Server(configuration: configuration, responder: app.makeResponder(), logger: logger, observer: app.metrics)
/// ```
///
/// ## Sendable
///
/// Route and page handlers may capture the app (`app.listDidChange(at:)` after a POST changed a
/// list). Set its properties while configuring it, before ``makeResponder()``: serving reads
/// them from many threads at once and takes no lock, so a handler calls its methods but sets
/// none of its properties.
public final class App: @unchecked Sendable {
    /// Every cell the lists can dequeue.
    public let registry: ReuseRegistry
    /// Where `prototypes/` and `layout.html` live; served under `/static/`, where its `app.css`, `app.js` or `favicon.svg` replace the built-in ones.
    public let publicDirectory: String
    /// The lists, in the order they were mounted.
    public internal(set) var lists: [ListRoute] = []
    public var siteName: String
    public let metrics: CellarMetrics
    public var logger: Logger
    /// Responses up to this size are sent as one buffer with an `ETag`; larger ones stream, unless
    /// ``largePageBudget`` has room for them.
    public var bufferLimit = 256 * 1024
    /// Pages larger than ``bufferLimit`` are still sent as one buffer (with an `ETag` and a
    /// `Content-Length`, and less work per byte than a stream) while the buffers waiting to be sent
    /// add up to less than this; a page that would not fit streams in chunks. It bounds the memory
    /// large pages take at once; 0 streams every large page.
    public var largePageBudget = 8 * 1024 * 1024
    /// The buffers waiting to be sent that ``largePageBudget`` is measured against, and that
    /// `/metrics` reports (`http_response_buffered_bytes`): the server counts them, so it must be
    /// given this object (`ServerConfiguration.bufferedResponseBytes`), as `App.run` does. A server
    /// that counts into another object leaves this one at 0, and large pages are then buffered
    /// without a bound. Set it before ``makeRouter()`` to share one the server already has.
    public var bufferedResponseBytes = BufferedResponseBytes()
    /// The size of each part of a streamed response.
    public var streamChunkSize = 64 * 1024
    /// The server's version, shown at `/healthz`.
    public var version = "0.1.0"
    /// Whether a 5xx answer shows what failed inside the server (the error's text), for
    /// development. Off by default: a 5xx then says only that the server failed, with the
    /// request id, and the details go to the log.
    public var showsErrorDetails = false
    /// Whether the server was started with `--development` (`CELLAR_DEVELOPMENT`), set by
    /// `App.run` before the app's set-up: what only a developer's machine should have, such as a
    /// demo account (``addDemoAccount(named:groups:)``).
    public internal(set) var isDevelopment = false
    /// The SQLite file or `postgres://` URL named on the command line (`--database`,
    /// `CELLAR_DATABASE`), for the app's set-up to serve (`try app.mount(Database.open(path))` with
    /// CellarDatabase); nil when none was. A URL may hold a password: never print it.
    public var databasePath: String?
    /// The query time limit named on the command line (`--query-time-limit`), in seconds, if any.
    public var databaseTimeLimit: Double?
    /// The database's configuration file named on the command line (`--config`), if any.
    public var databaseConfigurationPath: String?
    /// A folder of prototype templates for the database's cell rules (`--templates`), if any.
    public var databaseTemplatesPath: String?
    /// Whether a mounted database gets its SQL page, `/-/query`: false with `--no-sql`.
    public var databaseAllowsSQL = true
    /// Whether a database named on the command line may be written (`--writable`, `CELLAR_WRITABLE`).
    public var databaseWritable = false
    /// Whether its writes, and the JSON write API's to an app's own lists, must name the row's
    /// version (`--require-if-match`).
    public var databaseRequiresIfMatch = false
    /// The most rows one request to the JSON write API takes (`{"rows": […]}` of an insert or an
    /// upsert), on a database's tables and an app's own lists alike; 400 above it.
    public var maxRowsPerWrite = 100
    /// Whether its facet counts are kept per version of the data: false with `--no-facet-cache`
    /// (for measurement; ``DatabaseOptions/cachesFacets``).
    public var databaseCachesFacets = true
    /// Everyone watching a list (its URL with `Accept: text/event-stream`); tell it when a list's
    /// data changed with ``listDidChange(at:)``, or keep it to tell it from another thread. Replace
    /// it before ``makeRouter()`` to change how long and how many unwatched windows are kept.
    public var watchers = ListWatchers()
    /// The frame around every page: Cellar's own unless set, or read by ``loadLayout()``.
    public var layout = PageLayout.standard
    /// What `GET /readyz` checks (see ``ReadinessCheck``), in the order added.
    public private(set) var readinessChecks: [ReadinessCheck] = []
    /// Lists that wait for something outside the process (``mountWhenReachable(_:reason:_:)``): with
    /// any, `serve` answers through a ``DeferredStart`` until they are mounted.
    public internal(set) var deferredMounts: [DeferredMount] = []
    private var index: (path: String, title: String)?
    /// ``liveRoutes``, once something asked for them.
    var liveRoutesStorage: LiveRoutes?
    /// What the router made last answers with: the error pages' frame follows lists added and
    /// removed while serving (``errorRenderer``).
    let servingSnapshot = Locked<Snapshot?>(nil)
    /// Routes of the app's own (``route(_:_:_:)``, ``page(_:title:_:handler:)``): each made when the router
    /// is, from what a request needs of the app then (the site's frame is complete only once every list is mounted).
    var extraRoutes: [(method: HTTPMethod, pattern: String, makeHandler: (Snapshot) -> Router.Handler)] = []
    /// Each form's start-up check (``form(_:title:limits:_:submit:)``): its fields' names, and its page rendered once.
    var formChecks: [(path: String, check: (Snapshot) throws -> Void)] = []
    /// ``use(_:)``'s middleware, outermost first, inside ``crossOriginProtection``.
    var middleware: [any Middleware] = []
    /// Who can sign in and what each may do (``AccessConfiguration``): read from `--config`'s
    /// `accounts:` and `permissions:`, or set here before the server starts.
    public var access = AccessConfiguration()
    /// How sign-in behaves: `--private`, the session's lifetime, its keys.
    public var signIn = SignInOptions()
    /// Made by the first ``makeRouter()`` when sign-in is on (``usesSignIn``).
    var accessControlStorage: AccessControl?
    /// Refuses requests that change something when they come from another site (see
    /// ``CrossOriginProtection``): on by default, the outermost middleware. Set its
    /// `trustedOrigins` to let another site of yours post here; nil turns the protection off.
    public var crossOriginProtection: CrossOriginProtection? = CrossOriginProtection()
    /// Lets pages on other sites read the JSON API (``CrossOriginResourceSharing``, `--cors`):
    /// nil (the default) sends no CORS headers. Outermost, so that a preflight needs no sign-in.
    public var crossOriginResourceSharing: CrossOriginResourceSharing?
    /// The headers every response gets unless it sets them itself (``ServerConfiguration/defaultHeaders``,
    /// which `App.run` gives the server). Their `Content-Security-Policy` says `frame-ancestors
    /// 'none'`: no page of the site can be shown in a frame of another (clickjacking); change the
    /// policy here to allow it.
    public var defaultHeaders = ServerConfiguration.securityHeaders

    public init(publicDirectory: String, siteName: String = "Cellar", logger: Logger = Logger(label: "cellar")) {
        self.publicDirectory = publicDirectory
        self.siteName = siteName
        self.logger = logger
        registry = ReuseRegistry()
        metrics = CellarMetrics()
    }

    // MARK: Cells

    /// Registers a class cell under its own name.
    public func register<Cell: TableViewCell>(_ cellClass: Cell.Type) throws {
        try registry.register(cellClass)
    }

    /// Registers a class cell under an identifier of your choosing.
    public func register(_ cellClass: TableViewCell.Type, forCellReuseIdentifier identifier: String) throws {
        try registry.register(cellClass, forCellReuseIdentifier: identifier)
    }

    /// Registers every template in `Public/prototypes/` as a prototype cell.
    @discardableResult
    public func registerPrototypes() throws -> [String] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: publicDirectory, isDirectory: &isDirectory), isDirectory else {
            throw StartupError.missingPublicFolder(publicDirectory)
        }
        return try registry.registerPrototypes(in: publicDirectory + "/prototypes")
    }

    // MARK: Lists

    /// Mounts a list: `path` answers with the page, the fragment and JSON; `path.json` with JSON;
    /// `path/:id` with a row's detail (unless `hasDetail` is false); with `acceptsFormPosts`, a
    /// form POST too (``ListRoute/acceptsFormPosts``). The controller is made per request from its context.
    public func list(
        _ path: String, title: String? = nil, summary: String = "", paging: ListPaging = .paged, infiniteScroll: Bool = false,
        hasDetail: Bool = true, acceptsFormPosts: Bool = false, _ makeController: @escaping @Sendable (ListContext) throws -> any TableController
    ) {
        lists.append(
            ListRoute(
                path: path, title: title, summary: summary, paging: paging, infiniteScroll: infiniteScroll, hasDetail: hasDetail,
                acceptsFormPosts: acceptsFormPosts, makeController: makeController))
    }

    /// Adds a check to `GET /readyz` (see ``ReadinessCheck``); it replaces one of the same name.
    public func addReadinessCheck(_ name: String, _ check: @escaping @Sendable () throws -> Void) {
        readinessChecks.removeAll { $0.name == name }
        readinessChecks.append(ReadinessCheck(name, check))
    }

    /// Mounts the index of every list at `path` (itself a table controller).
    public func indexList(at path: String = "/", title: String = "Lists") {
        index = (path, title)
    }

    /// The index as a list route, over the lists mounted so far.
    var indexRoute: ListRoute? {
        guard let index else { return nil }
        let listed = lists.map { (path: $0.path, entry: ListIndexController.Entry(title: $0.title, path: $0.href, summary: $0.summary)) }
        let entries = listed.map(\.entry)
        let version = ListIndexController.version(of: entries)
        // With sign-in, each request's index has only the lists its actor may view.
        let control = usesSignIn ? accessControl : nil
        return ListRoute(path: index.path, title: index.title, paging: .unpaged, hasDetail: false) { context in
            guard let control else { return ListIndexController(title: index.title, entries: entries, contentVersion: version) }
            let visible = listed.filter { control.permits(context.request, .view, on: $0.path) }.map(\.entry)
            return ListIndexController(
                title: index.title, entries: visible,
                contentVersion: visible.count == entries.count ? version : ListIndexController.version(of: visible))
        }
    }

    /// Sends the watchers of the list at `path` what changed in their windows (``ListWatchers/listDidChange(at:)``).
    public func listDidChange(at path: String) {
        watchers.listDidChange(at: path)
    }

    /// Sends the watchers of the list at `path` what changed, as the app states it
    /// (``ListWatchers/listDidChange(at:_:)``).
    public func listDidChange(at path: String, _ changes: ListChanges) {
        watchers.listDidChange(at: path, changes)
    }

    /// Adds a route of your own: `handler` answers `method` on `pattern` with a whole ``Response``
    /// of its making (for a page in the site's frame, see ``page(_:title:_:handler:)``). Route parameters
    /// (`/recipes/:id`) are in `request.parameters`; an ``HTTPError`` thrown becomes the site's error
    /// page, or JSON for a client that asked for it.
    public func route(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Router.Handler) {
        extraRoutes.append((method, pattern, { _ in handler }))
    }

    // MARK: Serving

    /// The router: static files, `/healthz`, `/readyz`, `/metrics`, every list and its JSON and
    /// detail routes, and the app's pages and routes. Without the middleware: a server answers
    /// through ``makeResponder()``.
    public func makeRouter() -> Router {
        var router = Router()
        var made = snapshot()
        let control = accessControl
        made.editingAccess = EditingAccess(
            control: control, permissions: access.permissions, keys: control?.keys ?? signIn.keys ?? (try? SessionKeys.ephemeral()) ?? .none)
        made.requiresIfMatch = databaseRequiresIfMatch
        made.maxRowsPerWrite = maxRowsPerWrite
        let snapshot = made
        servingSnapshot.withLock { $0 = snapshot }
        let responder = ListResponder(app: snapshot)
        router.serveStaticFiles(at: "/static", from: publicDirectory, fallbacks: SiteAssets.files)
        // Made once: a health probe should cost the server nothing but the answer.
        let healthBody = ByteStorage(copying: Array("{\"status\":\"ok\",\"version\":\"\(version)\"}\n".utf8))
        var healthHeaders = Response.json(healthBody.bytes).headers
        healthHeaders.replaceOrAdd(name: "Cache-Control", value: "no-store")
        router.get("/healthz") { [healthHeaders] _ in Response(headers: healthHeaders, body: .storage(healthBody)) }
        let readinessChecks = readinessChecks
        router.get("/readyz") { _ in ReadinessCheck.response(for: readinessChecks) }
        let metrics = metrics
        let registry = registry
        router.get("/metrics") { _ in
            Response(
                status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store"],
                body: .bytes(metrics.exposition(cells: registry.statistics, bufferedResponseBytes: snapshot.bufferedResponseBytes.count)))
        }
        if let index = indexRoute {
            router.get(index.path) { try responder.respond(to: $0, route: index, path: .page) }
            for format in ListFormat.named {
                router.get(index.path(for: format)) { try responder.respond(to: $0, route: index, path: format) }
            }
        }
        for route in lists {
            router.get(route.path) { try responder.respond(to: $0, route: route, path: .page) }
            for format in ListFormat.named {
                router.get(route.path(for: format)) { try responder.respond(to: $0, route: route, path: format) }
            }
            if route.hasDetail { router.get(route.path + "/:id") { try responder.detail($0, route: route) } }
            router.post(route.path + EditingResponder.pathSuffix) { try EditingResponder(app: snapshot, route: route).respond(to: $0) }
            for kind in ListWriteResponder.Kind.allCases {
                let writer = ListWriteResponder(app: snapshot, route: route, kind: kind)
                router.post(writer.pattern) { try writer.respond(to: $0) }
            }
            if route.acceptsFormPosts {
                router.post(route.path) { try responder.respond(to: $0.withFormInQuery(), route: route, path: .page) }
                for format in ListFormat.named {
                    router.post(route.path(for: format)) { try responder.respond(to: $0.withFormInQuery(), route: route, path: format) }
                }
            }
        }
        for route in extraRoutes {
            router.on(route.method, route.pattern, route.makeHandler(snapshot))
        }
        addSignInRoutes(to: &router, snapshot: snapshot)
        return router
    }

    /// What a request needs of the app, frozen.
    struct Snapshot: Sendable {
        /// The cells every list dequeues from.
        let registry: ReuseRegistry
        /// The frame around pages: head, navigation, tail.
        let site: SiteLayout
        /// ``App/bufferLimit``, ``App/largePageBudget`` and ``App/bufferedResponseBytes``: when a
        /// page is sent from one buffer and when it streams.
        let bufferLimit: Int
        let largePageBudget: Int
        let bufferedResponseBytes: BufferedResponseBytes
        /// The size of a streamed list's chunks.
        let streamChunkSize: Int
        let logger: Logger
        /// Where a row shown as an error cell is logged and counted, shared by every response's reporter.
        let rowErrorLog: RowErrorReporter.Log
        /// Whether a 500's page tells the error (``App/development``).
        let showsErrorDetails: Bool
        /// ``App/watchers``.
        let watchers: ListWatchers
        /// ``App/metrics``: where a change to a list is counted.
        let metrics: CellarMetrics
        /// What every page's bytes depend on besides its controller and URL: this build of the
        /// server, its version, the site's name, navigation and layout, and the prototype templates. Mixed
        /// into the validators derived from a ``TableController/contentVersion``.
        let renderingSeed: UInt64
        /// Who may change a list (editing mode), once the router is made.
        var editingAccess: EditingAccess? = nil
        /// ``App/databaseRequiresIfMatch``, which an app's own lists' write API honours too.
        var requiresIfMatch = false
        /// ``App/maxRowsPerWrite``.
        var maxRowsPerWrite = 100
        /// ``App/accessControl``; nil when the app signs no one in.
        let accessControl: AccessControl?
        /// The lists' paths by the links the navigation has to them, for ``siteLayout(for:)``.
        let listPathsByLink: [String: String]
    }

    func snapshot() -> Snapshot {
        let navigation = (indexRoute.map { [($0.title, $0.href)] } ?? []) + lists.map { ($0.title, $0.href) }
        var seed = StableHash()
        seed.combine(Self.executableIdentity)
        seed.combine(version)
        seed.combine(siteName)
        for (title, path) in navigation {
            seed.combine(title)
            seed.combine(path)
        }
        seed.combine(registry.prototypeFingerprint)
        seed.combine(layout.fingerprint)
        // The footer's links to /healthz and /metrics are on the page in development only.
        if showsErrorDetails { seed.combine("development") }
        // The header's sign-in link.
        if usesSignIn { seed.combine("sign-in") }
        let home =
            index.map { (label: "All lists", path: ListRoute.percentEncodedPath($0.path)) }
            ?? lists.first.map { (label: $0.title, path: $0.href) }
        var site = SiteLayout(siteName: siteName, navigation: navigation, home: home, layout: layout, linksStatusPages: showsErrorDetails)
        site.offersSignIn = usesSignIn
        return Snapshot(
            registry: registry,
            site: site,
            bufferLimit: bufferLimit, largePageBudget: largePageBudget, bufferedResponseBytes: bufferedResponseBytes,
            streamChunkSize: streamChunkSize, logger: logger,
            rowErrorLog: RowErrorReporter.Log(logger: logger, metrics: metrics, showsErrorDetails: showsErrorDetails),
            showsErrorDetails: showsErrorDetails, watchers: watchers, metrics: metrics, renderingSeed: seed.value, accessControl: accessControl,
            listPathsByLink: Dictionary(lists.map { ($0.href, $0.path) }, uniquingKeysWith: { first, _ in first }))
    }

    /// This server's binary: its size and modification time, the same for every replica started
    /// from one image and different for each build (the cells' code is in it). Where the binary
    /// cannot be found, a number drawn for this process: validators then change at each restart.
    static let executableIdentity: UInt64 = {
        var status = stat()
        guard stat("/proc/self/exe", &status) == 0 else { return UInt64.random(in: .min ... .max) }
        var hash = StableHash()
        hash.combine(UInt64(truncatingIfNeeded: status.st_size))
        hash.combine(UInt64(truncatingIfNeeded: status.st_mtim.tv_sec))
        hash.combine(UInt64(truncatingIfNeeded: status.st_mtim.tv_nsec))
        return hash.value
    }()
}

/// Why the server cannot start; each says what to fix.
public enum StartupError: Error, CustomStringConvertible {
    case listDoesNotRender(path: String, reason: String)
    case formDoesNotRender(path: String, reason: String)
    case invalidRoutePattern(String, reason: String)
    case missingPublicFolder(String)

    public var description: String {
        switch self {
        case .missingPublicFolder(let path):
            "The public folder '\(path)' does not exist: the prototype cells are read from its prototypes/ (set --public or CELLAR_PUBLIC, or run from the folder that holds it)"
        case .listDoesNotRender(let path, let reason): "The list at \(path) does not render: \(reason)"
        case .formDoesNotRender(let path, let reason): "The form at \(path) does not render: \(reason)"
        case .invalidRoutePattern(_, let reason): "Invalid route: \(reason)"
        }
    }
}
