/// Dispatches requests to handlers by method and path pattern.
///
/// Build it at start-up, then hand it to the ``Server``; it is immutable while serving.
///
/// ## Patterns
/// - Literal segments: `/people/new`.
/// - Parameters: `/people/:id` matches `/people/42` with `parameters["id"] == "42"`; a parameter
///   never matches an empty segment. A `/` sent as `%2F` stays inside its segment: `/people/a%2Fb`
///   gives `parameters["id"] == "a/b"`.
/// - A trailing `*` (or `*name`) matches the rest of the path, possibly empty, under the name `*` (or `name`).
///
/// The handler finds the values in `request.parameters`, a ``RouteParameters`` made for the route
/// that answers only.
///
/// Literal segments win over parameters, parameters over `*`, segment by segment from the left;
/// a pattern that ends where the path does wins over one whose `*` matches nothing.
///
/// ## Answers
/// - A trailing slash is ignored: `/people/` is answered like `/people` (but it is kept in what `*` matches).
/// - No route matches the path: 404. Routes match the path for other methods only: 405 with `Allow`.
/// - `HEAD` is answered by the `GET` route (libmicrohttpd sends the headers without the body).
/// - `OPTIONS` without an explicit route: 204 with `Allow`.
public struct Router: HTTPResponder {
    /// A request handler.
    public typealias Handler = @Sendable (Request) throws -> Response

    /// A registered route, shared by reference by the lists of routes a path may match.
    private final class Route: Sendable {
        let method: HTTPMethod
        let pattern: String
        let segments: [Segment]
        let specificity: [Int]
        /// How many of `segments` are parameters or `*`: the room its ``RouteParameters`` need.
        let parameterCount: Int
        let handler: Handler

        init(method: HTTPMethod, pattern: String, segments: [Segment], specificity: [Int], handler: @escaping Handler) {
            self.method = method
            self.pattern = pattern
            self.segments = segments
            self.specificity = specificity
            self.parameterCount = segments.count(where: { if case .literal = $0 { false } else { true } })
            self.handler = handler
        }
    }

    private enum Segment: Sendable {
        case literal(Literal)
        case parameter(String)
        case rest(String)
    }

    /// A literal segment: its text, and its UTF-8 bytes to compare a path's segment with.
    private struct Literal: Sendable {
        let text: String
        let bytes: [UInt8]
        /// Whether every byte is ASCII: then a path's ASCII segment equals it only byte for byte.
        let isASCII: Bool

        init(_ text: String) {
            self.text = text
            bytes = Array(text.utf8)
            isASCII = bytes.allSatisfy { $0 < 0x80 }
        }
    }

    private var table: [Route] = []
    // The routes a path can match, found by its first segment: the indices (in `table` order) of
    // the routes whose pattern starts with that literal (`/` itself under "", as it matches only a
    // path with no segment or one empty one), merged with those of `openFirst`, the routes that
    // start with a parameter or `*`, which any path may match. A request for `/static/app.css` or
    // `/people/42` then tries a few patterns, not every one.
    private var byFirstLiteral: [String: [Int]] = [:]
    private var openFirst: [Int] = []
    /// Routes whose every segment is literal, by method and path: most requests are found with
    /// one hash lookup instead of a match against every pattern. (An exact literal match is the
    /// most specific match there can be, so the answer is the same.)
    private var literals: [LiteralKey: Route] = [:]

    private struct LiteralKey: Hashable, Sendable {
        let method: HTTPMethod
        let path: String
    }

    /// Creates an empty router.
    public init() {}

    /// The registered routes, in registration order.
    public var routes: [(method: HTTPMethod, pattern: String)] {
        table.map { ($0.method, $0.pattern) }
    }

    /// Registers `handler` for `method` on `pattern`; a later registration of the same method and pattern replaces the earlier one.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        let segments = Self.parse(pattern: pattern)
        let route = Route(
            method: method, pattern: pattern, segments: segments,
            specificity: segments.map {
                switch $0 {
                case .literal: 2
                case .parameter: 1
                case .rest: 0
                }
            } + [Self.patternEnd], handler: handler)
        table.removeAll { $0.method == method && $0.pattern == pattern }
        table.append(route)
        indexFirstSegments()
        if segments.allSatisfy({ if case .literal = $0 { true } else { false } }) {
            literals[LiteralKey(method: method, path: Self.literalPath(segments))] = route
        }
    }

    /// Rebuilds `byFirstLiteral` and `openFirst` from `table` (at registration, not per request).
    private mutating func indexFirstSegments() {
        byFirstLiteral = [:]
        openFirst = []
        for (index, route) in table.enumerated() {
            switch route.segments.first {
            case .literal(let first): byFirstLiteral[first.text, default: []].append(index)
            case nil: byFirstLiteral["", default: []].append(index)
            case .parameter, .rest: openFirst.append(index)
            }
        }
        guard !openFirst.isEmpty else { return }
        for (first, indices) in byFirstLiteral { byFirstLiteral[first] = (indices + openFirst).sorted() }
    }

    /// The indices of the routes `segments` may match, in `table` order (which breaks ties).
    private func candidates(for segments: [Substring]) -> [Int] {
        byFirstLiteral[segments.first.map(String.init) ?? ""] ?? openFirst
    }

    private static func literalPath(_ segments: [Segment]) -> String {
        "/" + segments.map { if case .literal(let literal) = $0 { literal.text } else { "" } }.joined(separator: "/")
    }

    /// Registers a `GET` handler (which also answers `HEAD`).
    public mutating func get(_ pattern: String, _ handler: @escaping Handler) {
        on(.get, pattern, handler)
    }

    /// Registers a `POST` handler.
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) {
        on(.post, pattern, handler)
    }

    /// Registers a `PUT` handler.
    public mutating func put(_ pattern: String, _ handler: @escaping Handler) {
        on(.put, pattern, handler)
    }

    /// Registers a `DELETE` handler.
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) {
        on(.delete, pattern, handler)
    }

    /// Serves the files under `root` at `prefix` (e.g. `/static/app.css` → `root/app.css`), and
    /// `fallbacks` (bytes by relative path) where `root` has nothing; see ``StaticFiles``.
    public mutating func serveStaticFiles(
        at prefix: String = "/static", from root: String, cacheControl: String = StaticFiles.defaultCacheControl,
        fallbacks: [String: [UInt8]] = [:]
    ) {
        let files = StaticFiles(root: root, cacheControl: cacheControl, fallbacks: fallbacks)
        let base = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        get(base + "/*") { request in
            try files.response(for: request.parameters["*"] ?? "", request: request)
        }
    }

    public func respond(to request: Request) throws -> Response {
        var matchedRoute: String?
        return try respond(to: request, matchedRoute: &matchedRoute)
    }

    /// Answers `request` with the most specific route's handler, and sets `matchedRoute` to that
    /// route's pattern before the handler runs (see ``HTTPResponder/respond(to:matchedRoute:)``).
    public func respond(to request: Request, matchedRoute: inout String?) throws -> Response {
        // A `/` sent as `%2F` belongs to its segment (a row identifier may hold one): split the
        // raw path first, then decode each segment.
        let rawSegments = request.rawPath.flatMap { raw in Self.holdsEncodedSlash(raw) ? Self.splitDecoding(raw) : nil }
        if !literals.isEmpty && rawSegments == nil {
            var path = request.path
            if path.utf8.count > 1 && path.hasSuffix("/") { path.removeLast() }
            let method = request.method == .head && literals[LiteralKey(method: .head, path: path)] == nil ? HTTPMethod.get : request.method
            if let route = literals[LiteralKey(method: method, path: path)] {
                var routed = request
                routed.route = route.pattern
                matchedRoute = route.pattern
                return try route.handler(routed)
            }
        }
        let segments = rawSegments ?? Self.split(path: request.path)
        // The winner is chosen first; only its parameters are made.
        var best: Route?
        var bestGet: Route?  // for a HEAD that no HEAD route matches
        var matchesAny = false
        for index in candidates(for: segments) {
            let route = table[index]
            guard Self.matches(route.segments, segments) else { continue }
            matchesAny = true
            if route.method == request.method {
                best = Self.moreSpecific(best, route)
            } else if request.method == .head && route.method == .get {
                bestGet = Self.moreSpecific(bestGet, route)
            }
        }
        if let route = best ?? bestGet {
            var routed = request
            routed.parameters = Self.parameters(of: route, in: segments)
            routed.route = route.pattern
            matchedRoute = route.pattern
            return try route.handler(routed)
        }
        guard matchesAny else { throw HTTPError.notFound() }
        let allow = Self.allowList(
            candidates(for: segments).map { table[$0] }.filter { Self.matches($0.segments, segments) }.map(\.method))
        if request.method == .options {
            return Response(status: .noContent, headers: ["Allow": allow.map(\.rawValue).joined(separator: ", ")])
        }
        throw HTTPError.methodNotAllowed(allowed: allow)
    }

    /// Where a pattern ends, in its specificity: above a `*` that matches nothing, so that of
    /// `/files/:id` and `/files/:id/*`, `/files/7` goes to the first.
    private static let patternEnd = 1

    /// `route` if it is more specific than `current` (or there is none), else `current`: of two
    /// equally specific routes, the first registered stays.
    private static func moreSpecific(_ current: Route?, _ route: Route) -> Route {
        guard let current, !current.specificity.lexicographicallyPrecedes(route.specificity) else { return route }
        return current
    }

    /// The methods to announce in `Allow`: the registered ones, plus HEAD with GET, plus OPTIONS.
    private static func allowList(_ methods: [HTTPMethod]) -> [HTTPMethod] {
        var result: [HTTPMethod] = []
        for method in methods {
            result.append(method)
            if method == .get { result.append(.head) }
        }
        result.append(.options)
        var seen = Set<HTTPMethod>()
        return result.filter { seen.insert($0).inserted }
    }

    /// Why `pattern` cannot be a route pattern, or nil: `*` (the rest of the path) must be its last
    /// segment. An app checks its patterns with this before registering them (Cellar's
    /// `App.validate()` does), so that a bad one is an error at start-up, not a trap.
    public static func problem(withPattern pattern: String) -> String? {
        let parts = split(path: pattern.hasPrefix("/") ? pattern : "/" + pattern)
        guard let rest = parts.firstIndex(where: { $0.hasPrefix("*") }), rest != parts.count - 1 else { return nil }
        return "'*' must be the last segment of a route pattern: \(pattern)"
    }

    private static func parse(pattern: String) -> [Segment] {
        // A programmer error in a pattern written in the source, reached only while routes are
        // registered at start-up, never by a request; ``problem(withPattern:)`` reports it as an
        // error to an app that checks first (Cellar's `App.validate()` does).
        if let problem = problem(withPattern: pattern) { preconditionFailure(problem) }
        return split(path: pattern.hasPrefix("/") ? pattern : "/" + pattern).map { part in
            if part.hasPrefix(":") && part.count > 1 { return .parameter(String(part.dropFirst())) }
            if part.hasPrefix("*") { return .rest(part.count > 1 ? String(part.dropFirst()) : "*") }
            return .literal(Literal(String(part)))
        }
    }

    /// Whether `raw` holds `%2F` or `%2f`, by a byte scan (`String.contains(_:)` is far slower, and
    /// this runs on every request).
    private static func holdsEncodedSlash(_ raw: String) -> Bool {
        func holds(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var index = 0
            while index + 2 < bytes.count {
                if bytes[index] == UInt8(ascii: "%") && bytes[index + 1] == UInt8(ascii: "2") && (bytes[index + 2] | 0x20) == UInt8(ascii: "f") {
                    return true
                }
                index += 1
            }
            return false
        }
        return raw.utf8.withContiguousStorageIfAvailable(holds) ?? Array(raw.utf8).withUnsafeBufferPointer(holds)
    }

    private static func splitDecoding(_ raw: String) -> [Substring] {
        split(path: raw).map { Substring(RequestContext.decodePath(ArraySlice($0.utf8))) }
    }

    /// Splits a path into segments, keeping empty inner segments (`//x`) and the trailing empty one (`/a/`).
    private static func split(path: String) -> [Substring] {
        guard path.hasPrefix("/") else { return [Substring(path)] }
        if path == "/" { return [] }
        // At each "/" byte, as RFC 3986 delimits segments: splitting by Character is slower, and
        // keeps a "/" followed by a combining mark inside its segment.
        let utf8 = path.utf8
        var segments: [Substring] = []
        let slash = UInt8(ascii: "/")
        segments.reserveCapacity(utf8.withContiguousStorageIfAvailable { $0.count(where: { $0 == slash }) } ?? utf8.count(where: { $0 == slash }))
        var start = utf8.index(after: utf8.startIndex)
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == slash {
                segments.append(path[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        segments.append(path[start...])
        return segments
    }

    /// The parameters `path` gives `route`'s pattern, which it matches.
    private static func parameters(of route: Route, in path: [Substring]) -> RouteParameters {
        guard route.parameterCount > 0 else { return RouteParameters() }
        var parameters = RouteParameters(capacity: route.parameterCount)
        for (index, segment) in route.segments.enumerated() {
            switch segment {
            case .literal: continue
            case .parameter(let name): parameters.append(name: name, value: String(path[index]))
            case .rest(let name): parameters.append(name: name, value: index < path.count ? path[index...].joined(separator: "/") : "")
            }
        }
        return parameters
    }

    /// Whether `path` matches `pattern`: its segment count (one trailing slash ignored, `/people/`
    /// matches `/people`), its literals, a parameter's segment not empty; `*` matches the rest.
    private static func matches(_ pattern: [Segment], _ path: [Substring]) -> Bool {
        if case .rest = pattern.last {
            guard path.count >= pattern.count - 1 else { return false }
        } else {
            guard path.count == pattern.count || (path.count == pattern.count + 1 && path.last?.isEmpty == true) else { return false }
        }
        for (index, segment) in pattern.enumerated() {
            switch segment {
            case .rest: return true
            case .literal(let literal): if !Self.segment(path[index], is: literal) { return false }
            case .parameter: if path[index].isEmpty { return false }
            }
        }
        return true
    }

    /// Whether a path's segment is `literal`: byte for byte, as most are, without making a String;
    /// by String's equality (canonical equivalence: `\u{212A}`, the Kelvin sign, is `K`) when the
    /// bytes differ and either holds a non-ASCII byte.
    private static func segment(_ segment: Substring, is literal: Literal) -> Bool {
        let byBytes = segment.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            if bytes.count == literal.bytes.count && bytes.indices.allSatisfy({ bytes[$0] == literal.bytes[$0] }) { return true }
            return literal.isASCII && bytes.allSatisfy({ $0 < 0x80 }) ? false : nil
        }
        if let answer = byBytes ?? nil { return answer }
        return segment == literal.text
    }
}
