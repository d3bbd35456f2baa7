import ByteWriters
import Logging
import MicroHTTP
import TableKit

/// Answers a list's URLs: makes the controller for the request, pages it, and writes the page,
/// fragment or JSON — as one buffer with an `ETag` when small, as a chunked stream when large —
/// or has a format that writes the whole list (CSV) answer.
struct ListResponder: Sendable {
    let app: App.Snapshot

    /// Answers a request to the list's path that names `path`'s format (``ListFormat/page`` for
    /// the list's own path).
    func respond(to request: Request, route: ListRoute, path: ListFormat) throws -> Response {
        if let watchFormat = WatchFormat.requested(by: request, path: path) {
            return try app.watchers.watch(request, route: route, format: watchFormat, responder: self)
        }
        let format = try ListFormat.negotiate(request, path: path)
        if case .wholeList(let respond) = format.answer { return try respond(self, request, route) }
        // The rows fragment too, so that "Load more" and a live refresh keep each row's controls.
        if format == .page || format == .fragment, let mode = EditingMode.requested(by: request, route: route, access: app.editingAccess) {
            return try editingPage(request, route: route, mode: mode, status: .ok, format: format)
        }
        let pageRequest = try PageRequest(query: request.query, paging: route.paging)
        let controller = try makeController(ListContext(request: request, listPath: route.path, page: pageRequest), route: route)
        // A detail list's controller, made per request, gives it its title.
        let route = route.titled(by: controller)
        if case .redirect(let target) = controller.action {
            return .redirect(to: target)
        }
        // Added one by one into room for all five (with `Link` and `ETag`), so the list never grows.
        var headers = HTTPHeaders()
        headers.reserveCapacity(5)
        headers.add(name: "Content-Type", value: format.contentType)
        headers.add(name: "Vary", value: "Accept, HX-Request")
        headers.add(name: "Cache-Control", value: "no-cache")
        // A controller with a version has its validator before any row is written: a client that
        // holds the page costs no rendering (and no query, for a controller that fetches its
        // page), and a stream carries it too. A list held in memory has its links on the 304 as
        // on the 200; a fetched page learns its next page only by fetching.
        let versionTag = controller.contentVersion.map {
            ETag.derived(
                seed: validatorSeed(for: request, list: route.path), version: $0, route: route.path, format: format, path: path,
                query: request.rawQuery)
        }
        let inMemory =
            route.paging.fetchesPages
            ? nil : try window(of: controller, pageRequest, request, route: route, path: path, headers: &headers)
        if let versionTag, let notModified = ETag.validate(versionTag, headers: &headers, request: request) { return notModified }
        let (layout, page, links) =
            try inMemory ?? window(of: controller, pageRequest, request, route: route, path: path, headers: &headers)
        let rowErrors = RowErrorReporter(request: request, route: route, controller: controller, log: app.rowErrorLog)
        let offersEditing =
            format == .page && app.editingAccess?.mayChangeAnyList == true && controller is any EditableTableController
            && EditingMode.allowed(request, route: route, access: app.editingAccess).any
        let body = makeBody(
            format: format, route: route, controller: controller, layout: layout, page: page, links: links, rowErrors: rowErrors,
            request: request, editQuery: offersEditing ? request.query : nil)

        let firstLimit = Self.firstLimit(rows: page.window.count, app: app, awaitingSend: app.bufferedResponseBytes.count)
        // Room for all of the first attempt (up to a quarter more for the row that crosses a limit):
        // growing a buffer of megabytes by doubling would copy it and hold twice its size.
        var bytes = ByteBuffer(capacity: min(firstLimit + firstLimit / 4, Self.largestSize(rows: page.window.count)))
        let finished = try guarded(request, route: route) { try body.write(into: &bytes, pausingAt: firstLimit) }
        let storage = bytes.takeStorage()
        guard finished else {
            let stream = ListStream(body: body, pending: storage, chunkSize: app.streamChunkSize)
            return Response(status: .ok, headers: headers, body: .stream(stream))
        }
        // A page with an error cell is not kept: the fault may be gone by the next request, and its
        // validator would answer 304 to it until the list changed. (A stream's head has gone out.)
        if rowErrors.failures > 0 {
            headers.remove(name: "ETag")
            headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
            return Response(status: .ok, headers: headers, body: .storage(storage))
        }
        // No version: the bytes are the validator.
        if versionTag == nil, let notModified = ETag.validate(storage.withUnsafeBytes(ETag.of), headers: &headers, request: request) {
            return notModified
        }
        return Response(status: .ok, headers: headers, body: .storage(storage))
    }

    /// How much of a page to write before deciding between one buffer and a stream (a page that
    /// ends within it is sent as one buffer).
    ///
    /// A page that may be small (16 KiB and 128 bytes a row, the least a showcase row takes, fit
    /// in ``App/bufferLimit``) gets the whole buffer limit. A larger one gets ``largestSize(rows:)``
    /// if that fits in what is left of ``App/largePageBudget`` once the buffers waiting to be sent
    /// are counted: large pages go out as one buffer while memory allows, and a page wider than
    /// expected holds no more than was allowed for before it streams the rest. Otherwise it gets
    /// one chunk and then streams, so memory per response stays near the chunk size. Faults in
    /// that first part still get an error page.
    static func firstLimit(rows: Int, app: App.Snapshot, awaitingSend: Int) -> Int {
        guard 16 * 1024 + rows * 128 > app.bufferLimit else { return app.bufferLimit }
        let largest = largestSize(rows: rows)
        return largest <= app.largePageBudget - max(awaitingSend, 0) ? largest : app.streamChunkSize
    }

    /// The size a page of `rows` rows is allowed before it streams: 16 KiB for the page around
    /// them and 320 bytes a row (showcase rows take 150 to 270).
    static func largestSize(rows: Int) -> Int {
        16 * 1024 + rows * 320
    }

    /// `path/:id`: the selected row's detail, as a page or JSON (`path/:id.json` or `Accept`).
    func detail(_ request: Request, route: ListRoute) throws -> Response {
        if let detail = route.detail { return try self.detail(request, route: route, madeBy: detail) }
        guard route.hasDetail, let requested = request.parameters["id"] else { throw HTTPError.notFound() }
        var identifier = requested
        var json = request.prefersJSON
        var trailingSlash = request.path.hasSuffix("/")
        if identifier.hasSuffix(".json"), identifier.count > 5 {
            identifier.removeLast(5)
            json = true
            trailingSlash = false
        }
        var found = try row(identifier, trailingSlash: trailingSlash, request: request, route: route)
        if found == nil, identifier != requested {
            // A row whose own identifier ends in `.json` (`/files/a.json`) is asked for as a page.
            found = try row(requested, trailingSlash: request.path.hasSuffix("/"), request: request, route: route)
            json = request.prefersJSON
        }
        guard let (controller, indexPath, rowIdentifier) = found, let detail = controller.detail(forRowAt: indexPath) else {
            throw HTTPError.notFound("\(route.title) has no row “\(identifier.prefix(80))”.")
        }
        // The row's own version, the same for its page and its JSON, for every actor and build: a
        // request that names it is answered 304 without rendering.
        let versionTag = detail.version.map { "\"\($0)\"" }
        if let versionTag {
            var headers: HTTPHeaders = ["Vary": "Accept"]
            if let notModified = ETag.validate(versionTag, headers: &headers, request: request) { return notModified }
        }
        var response = try guarded(request, route: route) {
            if json {
                let provider = controller.cellProvider(forRowAt: indexPath)
                return try DetailPage.json(
                    detail, identifier: rowIdentifier, cell: try provider.resolvedIdentifier(in: app.registry),
                    item: controller.item(forRowAt: indexPath), route: route)
            }
            return DetailPage.html(detail, route: route, site: app.siteLayout(for: request))
        }
        if let versionTag { response.headers.replaceOrAdd(name: "ETag", value: versionTag) }
        return response
    }

    /// The controller made for a detail route's row, the row's place and its identifier; nil when
    /// the list has no such row.
    private func row(_ identifier: String, trailingSlash: Bool, request: Request, route: ListRoute) throws
        -> (any TableController, IndexPath, String)?
    {
        let context = ListContext(
            request: request, listPath: route.path, page: PageRequest(firstOf: route.paging), rowIdentifier: identifier)
        let controller = try makeController(context, route: route)
        _ = try fetchPage(of: controller, request: request, route: route)
        // The router ignores one trailing slash, and the path arrives decoded: the link of row `</`
        // (`/xss/%3C%2F`) reaches here as `<`. Look the identifier up with its slash first, then
        // without (`/people/1/` is row 1).
        if trailingSlash, let withSlash = controller.indexPath(forRowWithIdentifier: identifier + "/") {
            return (controller, withSlash, identifier + "/")
        }
        return controller.indexPath(forRowWithIdentifier: identifier).map { (controller, $0, identifier) }
    }

    /// The window a request shows of a controller — its rows `offset..<offset + limit`, or every
    /// row of a controller that fetched just its page — and the page's links, also added to
    /// `headers` as `Link` (a paged list's).
    func window(
        of controller: any TableController, _ pageRequest: PageRequest, _ request: Request, route: ListRoute, path: ListFormat,
        headers: inout HTTPHeaders
    ) throws -> (TableLayout, Page, PageLinks) {
        let fetched = try fetchPage(of: controller, request: request, route: route)
        let layout = TableLayout(controller)
        let page = Self.page(pageRequest, fetched: fetched, layout: layout)
        let links = PageLinks(path: route.href(for: path), query: request.query, page: page)
        if route.paging != .unpaged {
            // Each link repeats the query: past a few kilobytes the header is left out (the page and
            // the JSON carry the same links), or a query near the head limit would make a response
            // head that no longer fits in the connection's memory.
            let link = links.header
            if link.utf8.count <= PageLinks.largestHeader { headers.add(name: "Link", value: link) }
        }
        return (layout, page, links)
    }

    static func page(_ request: PageRequest, fetched: FetchedPage?, layout: TableLayout) -> Page {
        guard let fetched else { return Page(request, total: layout.totalNumberOfRows) }
        return Page(request, fetched: fetched, rowsHeld: layout.totalNumberOfRows)
    }

    /// Has a keyset list's controller fetch its page, and returns where the page lies; nil for
    /// other lists, whose controllers hold every row.
    private func fetchPage(of controller: any TableController, request: Request, route: ListRoute) throws -> FetchedPage? {
        guard case .keyset = route.paging else { return nil }
        guard let fetching = controller as? any FetchedPageController else {
            throw HTTPError(
                .internalServerError,
                ListRouteError.notAFetchedPageController(route.path, type: String(reflecting: type(of: controller))).description)
        }
        return try guarded(request, route: route) {
            try fetching.fetchPage()
            return fetching.fetchedPage
        }
    }

    /// The validators' seed for the page of the list at `path` that `request` is answered: a
    /// signed-in page names its actor, so its `ETag` is its actor's own; and what the actor may
    /// do and view (``AccessControl/validatorInputs(of:list:into:)``), which a reload changes
    /// without the list's version moving. The rendering seed alone when no one signs in.
    func validatorSeed(for request: Request, list path: String) -> UInt64 {
        guard let control = app.accessControl else { return app.renderingSeed }
        var hash = StableHash()
        hash.combine(app.renderingSeed)
        if let actor = request.actor {
            hash.combine(1)
            hash.combine(actor)
        }
        control.validatorInputs(of: request, list: path, into: &hash)
        return hash.value
    }

    /// Renders a response in `format` into memory, at most a buffer's worth (start-up validation
    /// and tests).
    func renderWhole(_ request: Request, route: ListRoute, format: ListFormat) throws -> [UInt8] {
        guard case .window = format.answer else {
            // A client error is the request's, not the list's: a query's CSV wants its statement.
            var bytes: [UInt8] = []
            do {
                let status = try Self.firstPart(of: respond(to: request, route: route, path: format), into: &bytes, limit: app.bufferLimit)
                guard status.code < 500 else { throw HTTPError(status, String(decoding: bytes.prefix(500), as: UTF8.self)) }
            } catch let error as HTTPError where error.status.isClientError {
                return []
            }
            return bytes
        }
        let pageRequest = try PageRequest(query: request.query, paging: route.paging)
        let controller = try route.makeController(ListContext(request: request, listPath: route.path, page: pageRequest))
        var headers = HTTPHeaders()
        let (layout, page, links) = try window(of: controller, pageRequest, request, route: route, path: .page, headers: &headers)
        // No row error handler: a cell that fails stops the render, and the start with it.
        let body = makeBody(
            format: format, route: route, controller: controller, layout: layout, page: page, links: links, rowErrors: nil, request: request)
        var bytes = ByteBuffer()
        // Bounded: validation renders at most a buffer's worth of each list.
        _ = try body.write(into: &bytes, pausingAt: app.bufferLimit)
        return bytes.takeBytes()
    }

    /// Appends a response's body to `bytes`, a stream's parts until `limit` bytes; returns its status.
    private static func firstPart(of response: Response, into bytes: inout [UInt8], limit: Int) throws -> HTTPStatus {
        switch response.body {
        case .stream(let producer):
            while try producer.produce(into: &bytes), bytes.count < limit {}
        default:
            bytes.append(contentsOf: response.body.bufferedBytes ?? [])
        }
        return response.status
    }

    func makeController(_ context: ListContext, route: ListRoute) throws -> any TableController {
        try guarded(context.request, route: route) { try route.makeController(context) }
    }

    private func makeBody(
        format: ListFormat, route: ListRoute, controller: any TableController, layout: TableLayout, page: Page, links: PageLinks,
        rowErrors: RowErrorReporter?, request: Request, editQuery: QueryItems? = nil
    ) -> any ListBody {
        guard case .window(let makeBody) = format.answer else { preconditionFailure("\(format.name) writes the whole list") }
        return makeBody(
            ListBodyParts(
                format: format, route: route, controller: controller, layout: layout, page: page, links: links, registry: app.registry,
                site: app.visibleSite(for: request), actor: request.actor, editQuery: editQuery, rowErrors: rowErrors, query: request.query))
    }

    /// Runs controller and cell code: an ``HTTPError`` passes through; any other error becomes a
    /// 500 that says only that the server failed (the error page adds the request id), and is
    /// logged with the request id, the list and the error. In development
    /// (``App/showsErrorDetails``) the 500 also shows the error.
    func guarded<Result>(_ request: Request, route: ListRoute, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as HTTPError {
            throw error
        } catch {
            app.logger.error(
                "list failed",
                metadata: [
                    "request_id": "\(request.id)", "list": "\(route.path)", "error": "\(String(describing: error))",
                    "error_type": "\(String(reflecting: type(of: error)))",
                ])
            var message = "The server failed to answer this request."
            if app.showsErrorDetails { message += " \(String(reflecting: type(of: error))): \(String(describing: error))" }
            throw HTTPError(.internalServerError, message)
        }
    }
}
