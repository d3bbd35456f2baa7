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
/// server yourself instead, ``makeRouter()`` freezes what the app holds into an immutable
/// ``Router``; give a `Server` that router, ``errorRenderer`` and ``metrics``, and the app's
/// ``bufferedResponseBytes`` in its configuration:
///
/// ```swift
/// let configuration = ServerConfiguration(
///     port: 8080, errorRenderer: app.errorRenderer, bufferedResponseBytes: app.bufferedResponseBytes)
/// let server = Server(configuration: configuration, responder: app.makeRouter(), logger: logger, observer: app.metrics)
/// ```
public final class App {
    /// Every cell the lists can dequeue.
    public let registry: ReuseRegistry
    /// Where `prototypes/` and `layout.html` live; served under `/static/`, where its `app.css`, `app.js` or `favicon.svg` replace the built-in ones.
    public let publicDirectory: String
    /// The lists, in the order they were mounted.
    public private(set) var lists: [ListRoute] = []
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
    private var extraRoutes: [(HTTPMethod, String, Router.Handler)] = []

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
    private var indexRoute: ListRoute? {
        guard let index else { return nil }
        let entries = lists.map { ListIndexController.Entry(title: $0.title, path: $0.href, summary: $0.summary) }
        let version = ListIndexController.version(of: entries)
        return ListRoute(path: index.path, title: index.title, paging: .unpaged, hasDetail: false) { _ in
            ListIndexController(title: index.title, entries: entries, contentVersion: version)
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

    /// Adds a route of your own.
    public func route(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Router.Handler) {
        extraRoutes.append((method, pattern, handler))
    }

    // MARK: Serving

    /// Checks what can be checked before serving, and settles each list's title.
    ///
    /// Every route pattern must be valid, and every list must render, as a page and as JSON, its
    /// first page and its last (so a cell provider that fails only further down is found too when
    /// it fails there). A list mounted without a title takes its controller's; a controller whose
    /// title differs from the one its list was mounted with is reported as a warning. What lies
    /// between the first and the last page is not checked here: a provider that fails there fails
    /// that page (a 500), and the log says so. Call it before ``makeRouter()``;
    /// ``run(siteName:version:arguments:_:)`` does.
    public func validate() throws {
        let listPatterns = lists.flatMap { [$0.path, $0.path + ".json", $0.path + "/:id"] }
        for pattern in listPatterns + extraRoutes.map(\.1) {
            if let problem = Router.problem(withPattern: pattern) { throw StartupError.invalidRoutePattern(pattern, reason: problem) }
        }
        // Each list's first-page controller, made once: it settles the title and the pages to check.
        var pagesToCheck: [String: [String]] = [:]
        for index in lists.indices {
            let route = lists[index]
            let controller = try firstPageController(of: route)
            pagesToCheck[route.path] = checkedPages(of: route, total: controller.totalNumberOfRows)
            let controllerTitle = controller.title
            if !route.hasTitleOfItsOwn, !controllerTitle.isEmpty {
                lists[index].title = controllerTitle
            } else if route.hasTitleOfItsOwn, !controllerTitle.isEmpty, controllerTitle != route.title {
                logger.warning(
                    "a list's controller has a title of its own; the list's title is shown everywhere",
                    metadata: ["list": "\(route.path)", "title": "\(route.title)", "controller_title": "\(controllerTitle)"])
            }
        }
        let responder = ListResponder(app: snapshot())
        let audit = PrototypeTagAudit(registry: registry)
        var checked = 0
        for route in lists + (indexRoute.map { [$0] } ?? []) {
            let targets = try pagesToCheck[route.path] ?? checkedPages(of: route, total: firstPageController(of: route).totalNumberOfRows)
            for target in targets {
                let request = try Request(target: target)
                do {
                    _ = try responder.renderWhole(request, route: route, format: .page)
                    _ = try responder.renderWhole(request, route: route, format: .json)
                    try checkRows(of: route, request: request, audit: audit)
                } catch {
                    throw StartupError.listDoesNotRender(path: target, reason: String(describing: error))
                }
            }
            checked += 1
        }
        for warning in audit.warnings {
            logger.warning(
                "a prototype's tag is answered by no row's data",
                metadata: [
                    "prototype": "\(warning.identifier)", "file": "\(warning.file ?? "")", "line": "\(warning.line)",
                    "column": "\(warning.column)", "tag": "\(warning.tag)", "detail": "\(warning)",
                ])
        }
        if !audit.uncheckedPrototypes.isEmpty {
            logger.info(
                "prototypes no checked row uses: their tags were not checked",
                metadata: ["prototypes": "\(audit.uncheckedPrototypes.joined(separator: ","))"])
        }
        logger.info(
            "lists checked",
            metadata: [
                "lists": "\(checked)",
                "checked": "the first and last page of each list, as HTML and JSON; other rows are checked when they are asked for",
            ])
    }

    /// The controller for a list's first page, as a request without a query makes it.
    private func firstPageController(of route: ListRoute) throws -> any TableController {
        do {
            let context = ListContext(request: Request(path: route.path), listPath: route.path, page: PageRequest(firstOf: route.paging))
            return try route.makeController(context)
        } catch {
            throw StartupError.listDoesNotRender(path: route.path, reason: String(describing: error))
        }
    }

    /// The targets that ``validate()`` renders for a list of `total` rows: its first page, and its
    /// last when it has more than one.
    private func checkedPages(of route: ListRoute, total: Int) -> [String] {
        // An unpaged list is checked 50 rows at a time at each end, as its whole can be a million rows.
        let first = route.paging == .unpaged ? "\(route.path)?limit=50" : route.path
        let size = PageRequest(firstOf: route.paging).limit ?? 50
        guard total > size else { return [first] }
        return [first, "\(route.path)?offset=\(total - size)&limit=\(size)"]
    }

    /// Shows the page's rows to `audit` (which prototype tags their data answers).
    private func checkRows(of route: ListRoute, request: Request, audit: PrototypeTagAudit) throws {
        let pageRequest = try PageRequest(query: request.query, paging: route.paging)
        let controller = try route.makeController(ListContext(request: request, listPath: route.path, page: pageRequest))
        let page = Page(pageRequest, total: controller.totalNumberOfRows)
        for row in page.window {
            guard let indexPath = controller.indexPath(atFlatIndex: row) else { continue }
            audit.record(controller.cellProvider(forRowAt: indexPath))
        }
    }

    /// The router: static files, `/healthz`, `/readyz`, `/metrics`, every list and its JSON and detail routes.
    public func makeRouter() -> Router {
        var router = Router()
        let snapshot = snapshot()
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
            router.get(index.path) { try responder.respond(to: $0, route: index, pathRequestsJSON: false) }
            router.get(index.jsonPath) {
                try responder.respond(to: $0, route: index, pathRequestsJSON: true)
            }
        }
        for route in lists {
            router.get(route.path) { try responder.respond(to: $0, route: route, pathRequestsJSON: false) }
            router.get(route.path + ".json") { try responder.respond(to: $0, route: route, pathRequestsJSON: true) }
            if route.hasDetail { router.get(route.path + "/:id") { try responder.detail($0, route: route) } }
            if route.acceptsFormPosts {
                router.post(route.path) { try responder.respond(to: $0.withFormInQuery(), route: route, pathRequestsJSON: false) }
                router.post(route.path + ".json") { try responder.respond(to: $0.withFormInQuery(), route: route, pathRequestsJSON: true) }
            }
        }
        for (method, pattern, handler) in extraRoutes {
            router.on(method, pattern, handler)
        }
        return router
    }

    /// The styled error pages (HTML, or JSON for JSON clients), for ``ServerConfiguration/errorRenderer``.
    public var errorRenderer: ServerConfiguration.ErrorRenderer {
        let site = snapshot().site
        return { error, request in ErrorPages.response(for: error, request: request, site: site) }
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
        /// Whether a 500's page tells the error (``App/development``).
        let showsErrorDetails: Bool
        /// ``App/watchers``.
        let watchers: ListWatchers
        /// What every page's bytes depend on besides its controller and URL: this build of the
        /// server, its version, the site's name, navigation and layout, and the prototype templates. Mixed
        /// into the validators derived from a ``TableController/contentVersion``.
        let renderingSeed: UInt64
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
        let home =
            index.map { (label: "All lists", path: ListRoute.percentEncodedPath($0.path)) }
            ?? lists.first.map { (label: $0.title, path: $0.href) }
        return Snapshot(
            registry: registry, site: SiteLayout(siteName: siteName, navigation: navigation, home: home, layout: layout),
            bufferLimit: bufferLimit, largePageBudget: largePageBudget, bufferedResponseBytes: bufferedResponseBytes,
            streamChunkSize: streamChunkSize, logger: logger,
            showsErrorDetails: showsErrorDetails, watchers: watchers, renderingSeed: seed.value)
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
    case invalidRoutePattern(String, reason: String)
    case missingPublicFolder(String)

    public var description: String {
        switch self {
        case .missingPublicFolder(let path):
            "The public folder '\(path)' does not exist: the prototype cells are read from its prototypes/ (set --public or CELLAR_PUBLIC, or run from the folder that holds it)"
        case .listDoesNotRender(let path, let reason): "The list at \(path) does not render: \(reason)"
        case .invalidRoutePattern(_, let reason): "Invalid route: \(reason)"
        }
    }
}
