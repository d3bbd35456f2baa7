import Logging
import MicroHTTP
import TableKit

/// Answers a list's URLs: makes the controller for the request, pages it, and writes the page,
/// fragment or JSON — as one buffer with an `ETag` when small, as a chunked stream when large.
struct ListResponder: Sendable {
    let app: App.Snapshot

    func respond(to request: Request, route: ListRoute, pathRequestsJSON: Bool) throws -> Response {
        let format = try ListFormat.negotiate(request, pathRequestsJSON: pathRequestsJSON)
        let pageRequest = try PageRequest(query: request.query, paging: route.paging)
        let controller = try makeController(ListContext(request: request, listPath: route.path, page: pageRequest), route: route)
        if case .redirect(let target) = controller.action {
            return .redirect(to: target)
        }
        let layout = TableLayout(controller)
        let page = Page(pageRequest, total: layout.totalNumberOfRows)
        let links = PageLinks(path: pathRequestsJSON ? App.jsonPath(for: route.path) : route.path, query: request.query, page: page)

        // Added one by one into room for all five (with `Link` and `ETag`): a literal made an array
        // of its own, and the list grew twice after it.
        var headers = HTTPHeaders()
        headers.reserveCapacity(5)
        headers.add(name: "Content-Type", value: format.contentType)
        headers.add(name: "Vary", value: "Accept, HX-Request")
        headers.add(name: "Cache-Control", value: "no-cache")
        if route.paging != .unpaged {
            // Each link repeats the query: past a few kilobytes the header is left out (the page and
            // the JSON carry the same links), or a query near the head limit would make a response
            // head that no longer fits in the connection's memory.
            let link = links.header
            if link.utf8.count <= PageLinks.largestHeader { headers.add(name: "Link", value: link) }
        }
        // A controller with a version has its validator before any row is written: a client that
        // holds the page costs no rendering, and a stream carries it too.
        let versionTag = controller.contentVersion.map {
            ETag.derived(
                seed: app.renderingSeed, version: $0, route: route.path, format: format, pathRequestsJSON: pathRequestsJSON,
                query: request.rawQuery)
        }
        if let versionTag, let notModified = ETag.validate(versionTag, headers: &headers, request: request) { return notModified }
        let body = makeBody(format: format, route: route, controller: controller, layout: layout, page: page, links: links)

        let firstLimit = Self.firstLimit(rows: page.window.count, app: app, awaitingSend: Response.bufferedBytesAwaitingSend)
        var bytes: [UInt8] = []
        // Room for all of the first attempt (up to a quarter more for the row that crosses a limit):
        // growing a buffer of megabytes by doubling would copy it and hold twice its size. The
        // writer's first growth takes this size and makes its own array (the reserved one is never
        // touched, so never resident); starting the writer at this size directly instead raised
        // peak RSS under load by 1–3 MB (glibc places the bodies differently), for 450
        // instructions a request.
        bytes.reserveCapacity(min(firstLimit + firstLimit / 4, Self.largestSize(rows: page.window.count)))
        let finished = try guarded(request, route: route) { try body.write(into: &bytes, pausingAt: firstLimit) }
        guard finished else {
            let stream = ListStream(body: body, pending: bytes, chunkSize: app.streamChunkSize)
            return Response(status: .ok, headers: headers, body: .stream(stream))
        }
        // No version: the bytes are the validator.
        if versionTag == nil, let notModified = ETag.validate(ETag.of(bytes), headers: &headers, request: request) { return notModified }
        return Response(status: .ok, headers: headers, body: .bytes(bytes))
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
        guard route.hasDetail, var identifier = request.parameters["id"] else { throw HTTPError.notFound() }
        var json = request.prefersJSON
        var trailingSlash = request.path.hasSuffix("/")
        if identifier.hasSuffix(".json"), identifier.count > 5 {
            identifier.removeLast(5)
            json = true
            trailingSlash = false
        }
        let context = ListContext(
            request: request, listPath: route.path, page: PageRequest(firstOf: route.paging), rowIdentifier: identifier)
        let controller = try makeController(context, route: route)
        // The router ignores one trailing slash, and the path arrives decoded: the link of row `</`
        // (`/xss/%3C%2F`) reaches here as `<`. Look the identifier up with its slash first, then
        // without (`/people/1/` is row 1).
        var found = controller.indexPath(forRowWithIdentifier: identifier)
        if trailingSlash, let withSlash = controller.indexPath(forRowWithIdentifier: identifier + "/") {
            identifier += "/"
            found = withSlash
        }
        guard let indexPath = found, let detail = controller.detail(forRowAt: indexPath) else {
            throw HTTPError.notFound("\(route.title) has no row “\(identifier.prefix(80))”.")
        }
        return try guarded(request, route: route) {
            if json {
                let provider = controller.cellProvider(forRowAt: indexPath)
                return try DetailPage.json(
                    detail, identifier: identifier, cell: try provider.resolvedIdentifier(in: app.registry),
                    item: controller.item(forRowAt: indexPath), route: route)
            }
            return DetailPage.html(detail, route: route, site: app.site)
        }
    }

    /// Renders a whole response into memory (start-up validation and tests).
    func renderWhole(_ request: Request, route: ListRoute, format: ListFormat) throws -> [UInt8] {
        let pageRequest = try PageRequest(query: request.query, paging: route.paging)
        let controller = try route.makeController(ListContext(request: request, listPath: route.path, page: pageRequest))
        let layout = TableLayout(controller)
        let page = Page(pageRequest, total: layout.totalNumberOfRows)
        let links = PageLinks(path: route.path, query: request.query, page: page)
        let body = makeBody(format: format, route: route, controller: controller, layout: layout, page: page, links: links)
        var bytes: [UInt8] = []
        // Bounded: validation renders at most a buffer's worth of each list.
        _ = try body.write(into: &bytes, pausingAt: app.bufferLimit)
        return bytes
    }

    private func makeController(_ context: ListContext, route: ListRoute) throws -> any TableController {
        try guarded(context.request, route: route) { try route.makeController(context) }
    }

    private func makeBody(
        format: ListFormat, route: ListRoute, controller: any TableController, layout: TableLayout, page: Page, links: PageLinks
    ) -> any ListBody {
        switch format {
        case .json:
            return JSONListBody(route: route, controller: controller, layout: layout, page: page, links: links, registry: app.registry)
        case .page, .fragment:
            let tableView = TableView(registry: app.registry, selectionBase: route.hasDetail ? route.path : nil)
            return HTMLListBody(
                format: format, route: route, controller: controller, layout: layout, page: page, links: links, site: app.site,
                tableView: tableView)
        }
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

extension App {
    /// `/people` → `/people.json`; the index at `/` → `/index.json`.
    static func jsonPath(for path: String) -> String {
        path == "/" ? "/index.json" : path + ".json"
    }
}

/// Streams a list body that outgrew the buffer: first what was already written, then a chunk at a time.
///
/// Released by the server when the response is done or the client is gone; the body's
/// ``TableView`` goes with it and returns its pool of cells to the registry.
final class ListStream: ResponseBodyProducer {
    private let body: any ListBody
    private var pending: [UInt8]?
    private let chunkSize: Int

    init(body: any ListBody, pending: [UInt8], chunkSize: Int) {
        self.body = body
        self.pending = pending
        self.chunkSize = chunkSize
    }

    func produce(into buffer: inout [UInt8]) throws -> Bool {
        if var pending {
            self.pending = nil
            // The bytes of the first attempt are handed over, not copied (the caller's buffer is
            // empty at the first call; the server keeps no larger buffer once they are sent).
            if buffer.isEmpty { swap(&buffer, &pending) } else { buffer.append(contentsOf: pending) }
            return true
        }
        return try !body.write(into: &buffer, pausingAt: buffer.count + chunkSize)
    }
}

/// Strong validators: a 64-bit hash of a buffered body's bytes, or of what a versioned list's
/// bytes are made from, quoted.
enum ETag {
    /// The validator of a list whose controller has a ``TableController/contentVersion``: the
    /// rendering seed (build, site, templates), the version, the list, the format and whether
    /// the path asked for JSON (its links differ), and the query as received.
    static func derived(seed: UInt64, version: String, route: String, format: ListFormat, pathRequestsJSON: Bool, query: String?) -> String {
        var hash = StableHash()
        hash.combine(seed)
        hash.combine(version)
        hash.combine(route)
        hash.combine(format.rawValue)
        hash.combine(pathRequestsJSON ? 1 : 0)
        hash.combine(query ?? "")
        // FNV's last bytes reach only part of the value: mixed (MurmurHash3's finaliser) so that
        // queries one digit apart differ in every hex digit.
        var value = hash.value
        value = (value ^ (value >> 33)) &* 0xff51_afd7_ed55_8ccd
        value = (value ^ (value >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        return quotedHex(value ^ (value >> 33))
    }

    static func of(_ bytes: [UInt8]) -> String {
        // Four independent lanes of multiply-xor over 32 bytes a step, folded at the end: a
        // validator, not a cryptographic hash, at a fraction of a cycle per byte.
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (0xcbf2_9ce4_8422_2325, 0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f, 0x1656_67b1_9e37_79f9)
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var hash: UInt64 = 0
        bytes.withUnsafeBytes { raw in
            var index = 0
            let count = raw.count
            while index + 32 <= count {
                lanes.0 = (lanes.0 ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* prime
                lanes.1 = (lanes.1 ^ raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)) &* prime
                lanes.2 = (lanes.2 ^ raw.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)) &* prime
                lanes.3 = (lanes.3 ^ raw.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)) &* prime
                index += 32
            }
            hash = lanes.0 ^ (lanes.1 >> 7 | lanes.1 << 57) ^ (lanes.2 >> 19 | lanes.2 << 45) ^ (lanes.3 >> 31 | lanes.3 << 33)
            while index < count {
                hash = (hash ^ UInt64(raw[index])) &* prime
                index += 1
            }
        }
        hash ^= hash >> 29
        hash ^= UInt64(bytes.count)
        return quotedHex(hash)
    }

    /// `hash` as an entity tag: `"`, sixteen lowercase hex digits, `"`. Written into the string's
    /// own storage: `String(_:radix:)`, padding and concatenation made three strings a response.
    static func quotedHex(_ hash: UInt64) -> String {
        String(unsafeUninitializedCapacity: 18) { out in
            out[0] = UInt8(ascii: "\"")
            HexDigits.write(hash, count: 16, into: out, at: 1)
            out[17] = UInt8(ascii: "\"")
            return 18
        }
    }

    /// Adds `etag` to `headers`; the 304 (with those headers) when the request's `If-None-Match`
    /// names it, nil when the page is to be sent.
    static func validate(_ etag: String, headers: inout HTTPHeaders, request: Request) -> Response? {
        headers.add(name: "ETag", value: etag)
        guard matches(etag, request.headers["If-None-Match"]) else { return nil }
        return Response(status: .notModified, headers: headers, body: .empty)
    }

    /// Whether an `If-None-Match` header names `etag` (or is `*`); weak comparison, as RFC 9110 asks for GET.
    static func matches(_ etag: String, _ header: String?) -> Bool {
        guard let header else { return false }
        for candidate in header.split(separator: ",") {
            var tag = candidate.drop { $0 == " " || $0 == "\t" }
            while tag.last == " " || tag.last == "\t" { tag = tag.dropLast() }
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}
