import HTTPTestSupport
import MicroHTTP
import Testing

@Suite struct RouterTests {
    static func router() -> Router {
        var router = Router()
        router.get("/") { _ in .text("home") }
        router.get("/people") { _ in .text("list") }
        router.get("/people/new") { _ in .text("new form") }
        router.get("/people/:id") { request in .text("person \(request.parameters["id"] ?? "?") via \(request.route ?? "?")") }
        router.post("/people") { request in .text("created \(request.body.count)", status: .created) }
        router.delete("/people/:id") { _ in Response(status: .noContent) }
        router.get("/files/*") { request in .text("rest=\(request.parameters["*"] ?? "nil")") }
        return router
    }

    func respond(_ method: HTTPMethod, _ path: String) throws -> Response {
        try Self.router().respond(to: Request(method: method, path: path))
    }

    func text(_ response: Response) -> String {
        if let bytes = response.body.bufferedBytes { return String(decoding: bytes, as: UTF8.self) }
        return ""
    }

    @Test func theMatchedRouteIsHandedBack() throws {
        var router = Self.router()
        router.get("/broken/:id") { _ in throw HTTPError.notFound() }
        var route: String?
        _ = try router.respond(to: Request(path: "/people/42"), matchedRoute: &route)
        #expect(route == "/people/:id")
        route = nil
        _ = try router.respond(to: Request(path: "/people"), matchedRoute: &route)
        #expect(route == "/people")
        // Set before the handler runs: a handler's error is still the route's.
        route = nil
        #expect(throws: HTTPError.self) { try router.respond(to: Request(path: "/broken/1"), matchedRoute: &route) }
        #expect(route == "/broken/:id")
        route = nil
        #expect(throws: HTTPError.self) { try router.respond(to: Request(path: "/nowhere"), matchedRoute: &route) }
        #expect(route == nil)
    }

    @Test func literalAndParameterRoutes() throws {
        #expect(text(try respond(.get, "/")) == "home")
        #expect(text(try respond(.get, "/people")) == "list")
        #expect(text(try respond(.get, "/people/42")) == "person 42 via /people/:id")
        #expect(text(try respond(.get, "/people/new")) == "new form")
    }

    /// A path splits at every "/" byte, also one that a combining mark follows (one Character
    /// with it, which a split by Characters would have kept inside its segment).
    @Test func segmentsSplitAtEverySlashByte() throws {
        #expect(text(try respond(.get, "/people/\u{301}")) == "person \u{301} via /people/:id")
        #expect(text(try respond(.get, "/people/caf\u{E9}")) == "person caf\u{E9} via /people/:id")
        #expect(text(try respond(.get, "/files/a/\u{301}b/\u{1F377}")) == "rest=a/\u{301}b/\u{1F377}")
        #expect(throws: HTTPError.self) { try respond(.get, "/people\u{301}") }
    }

    @Test func trailingSlashIsIgnored() throws {
        #expect(text(try respond(.get, "/people/")) == "list")
        #expect(text(try respond(.get, "/people/7/")) == "person 7 via /people/:id")
    }

    @Test func restMatchesTheRemainder() throws {
        #expect(text(try respond(.get, "/files/a/b.css")) == "rest=a/b.css")
        #expect(text(try respond(.get, "/files/")) == "rest=")
        #expect(text(try respond(.get, "/files//etc/passwd")) == "rest=/etc/passwd")
    }

    @Test func aRestSegmentAnywhereButLastIsAProblemToReport() {
        #expect(Router.problem(withPattern: "/static/*path") == nil)
        #expect(Router.problem(withPattern: "*") == nil)
        #expect(Router.problem(withPattern: "/people/:id") == nil)
        #expect(Router.problem(withPattern: "/a/*/b") == "'*' must be the last segment of a route pattern: /a/*/b")
        #expect(Router.problem(withPattern: "/*rest/:id") != nil)
    }

    @Test func aPathAmongManyPatternsOfOneFirstSegmentFindsItsOwn() throws {
        var router = Router()
        for action in ["update", "delete", "edit"] {
            router.post("/items/:key/-/\(action)") { request in .text("\(action) \(request.parameters["key"] ?? "?")") }
        }
        router.get("/items/:key") { request in .text("row \(request.parameters["key"] ?? "?")") }
        router.get("/items/:key/files/*") { request in .text("file \(request.parameters["*"] ?? "?")") }
        #expect(text(try router.respond(to: Request(method: .post, path: "/items/7/-/delete"))) == "delete 7")
        #expect(text(try router.respond(to: Request(method: .post, path: "/items/7/-/update/"))) == "update 7")
        #expect(text(try router.respond(to: Request(path: "/items/7/"))) == "row 7")
        #expect(text(try router.respond(to: Request(path: "/items/7/files/a/b"))) == "file a/b")
        #expect(throws: HTTPError.self) { try router.respond(to: Request(path: "/items/7/-/update")) }
        #expect(throws: HTTPError.self) { try router.respond(to: Request(method: .post, path: "/items//-/update")) }
        #expect(throws: HTTPError.self) { try router.respond(to: Request(method: .post, path: "/items/7/-/update/x")) }
    }

    @Test func unknownPathIs404() {
        #expect(throws: HTTPError.self) { try respond(.get, "/nope") }
        do {
            _ = try respond(.get, "/people/1/extra")
            Issue.record("expected 404")
        } catch let error as HTTPError {
            #expect(error.status == .notFound)
        } catch { Issue.record("unexpected \(error)") }
        #expect(throws: HTTPError.self) { try respond(.get, "//people") }
    }

    @Test(arguments: [
        (HTTPMethod.put, "/people", "GET, HEAD, POST, OPTIONS"),
        // `/` has no segment: found for the empty path (and its 405), nowhere else.
        (HTTPMethod.delete, "/", "GET, HEAD, OPTIONS"),
    ])
    func otherMethodIs405WithAllow(method: HTTPMethod, path: String, allow: String) {
        do {
            _ = try respond(method, path)
            Issue.record("expected 405")
        } catch let error as HTTPError {
            #expect(error.status == .methodNotAllowed)
            #expect(error.headers["Allow"] == allow)
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func headUsesGetAndOptionsListsMethods() throws {
        #expect(text(try respond(.head, "/people")) == "list")
        let options = try respond(.options, "/people/3")
        #expect(options.status == .noContent)
        #expect(options.headers["Allow"] == "GET, HEAD, DELETE, OPTIONS")
    }

    /// A `*` may match nothing, but a pattern that ends where the path does is the more specific.
    @Test func aPatternEndingWithThePathBeatsARestThatMatchesNothing() throws {
        for reversed in [false, true] {
            var routes: [(String, String)] = [("/files/:id", "file"), ("/files/:id/*", "rest"), ("/", "root"), ("/*", "anything")]
            if reversed { routes.reverse() }
            var router = Router()
            for (pattern, answer) in routes { router.get(pattern) { request in .text(answer + (request.parameters["*"].map { " " + $0 } ?? "")) } }
            func answer(_ path: String) throws -> String { text(try router.respond(to: Request(method: .get, path: path))) }
            #expect(try answer("/files/7") == "file")
            #expect(try answer("/files/7/") == "file")
            #expect(try answer("/files/7/a/b") == "rest a/b")
            #expect(try answer("/") == "root")
            #expect(try answer("/x") == "anything x")
        }
    }

    /// Patterns that start with a parameter or `*` compete with those that start with the path's
    /// first segment, whatever the order they were registered in: the most specific wins, the
    /// first registered breaks a tie, and `Allow` lists the methods of both kinds.
    @Test(arguments: [false, true])
    func patternsStartingWithAParameterCompeteWithLiterals(reversed: Bool) throws {
        var routes: [(HTTPMethod, String, String)] = [
            (.get, "/:kind/x", "kind"), (.get, "/b/:name", "name"), (.post, "/:kind/y", "post"), (.get, "/b/*", "rest"),
            (.get, "/*", "anything"), (.delete, "/c/:id", "delete c"),
        ]
        if reversed { routes.reverse() }
        var router = Router()
        for (method, pattern, answer) in routes { router.on(method, pattern) { _ in .text(answer) } }
        func answer(_ method: HTTPMethod, _ path: String) throws -> String {
            text(try router.respond(to: Request(method: method, path: path)))
        }
        #expect(try answer(.get, "/b/x") == "name")  // literal first: [2, 1] beats [1, 2]
        #expect(try answer(.get, "/a/x") == "kind")
        #expect(try answer(.get, "/b/x/z") == "rest")
        #expect(try answer(.get, "/zzz/q") == "anything")
        #expect(try answer(.get, "/") == "anything")
        #expect(try answer(.post, "/c/y") == "post")
        #expect(try answer(.delete, "/c/9") == "delete c")
        do {
            _ = try router.respond(to: Request(method: .put, path: "/c/y"))
            Issue.record("expected 405")
        } catch let error as HTTPError {
            #expect(error.status == .methodNotAllowed)
            let allowed = Set((error.headers["Allow"] ?? "").split(separator: ", ").map(String.init))
            #expect(allowed == ["GET", "HEAD", "POST", "DELETE", "OPTIONS"])
        }
        // Registering a pattern again replaces it, and the index follows.
        router.get("/b/:name") { _ in .text("name again") }
        #expect(try answer(.get, "/b/x") == "name again")
        #expect(try answer(.get, "/a/x") == "kind")
    }

    @Test func routesAreListed() {
        let routes = Self.router().routes
        #expect(routes.count == 7)
        #expect(routes.contains { $0.method == .post && $0.pattern == "/people" })
    }

    /// A handler that answers with its request's parameters, in order, and its route.
    static func echo(_ request: Request) -> Response {
        .text(request.parameters.map { "\($0.name)=\($0.value)" }.joined(separator: " ") + " via \(request.route ?? "?")")
    }

    /// A `/` sent as `%2F` stays inside the parameter's value, decoded.
    @Test func aParameterKeepsAnEncodedSlash() throws {
        var router = Router()
        router.post("/items/:key/-/update", Self.echo)
        router.get("/items/:key", Self.echo)
        let update = try router.respond(to: Request(method: .post, target: "/items/a%2Fb/-/update"))
        #expect(text(update) == "key=a/b via /items/:key/-/update")
        #expect(text(try router.respond(to: Request(target: "/items/a%2fb%20c"))) == "key=a/b c via /items/:key")
        #expect(text(try router.respond(to: Request(target: "/items/%2F"))) == "key=/ via /items/:key")
        #expect(text(try router.respond(to: Request(target: "/items/a%2"))) == "key=a%2 via /items/:key")
        #expect(text(try router.respond(to: Request(target: "/items/a%2Gb"))) == "key=a%2Gb via /items/:key")
        #expect(throws: HTTPError.self) { try router.respond(to: Request(target: "/items/a/b")) }
    }

    @Test func aNamedRestHoldsTheRestOfThePath() throws {
        var router = Router()
        router.get("/static/*path") { request in
            .text("\(request.parameters["path"] ?? "nil") \(request.parameters["*"] ?? "nil") \(request.parameters.count)")
        }
        #expect(text(try router.respond(to: Request(path: "/static/css/app.css"))) == "css/app.css nil 1")
        #expect(text(try router.respond(to: Request(path: "/static"))) == " nil 1")
        #expect(text(try router.respond(to: Request(path: "/static/a//b/"))) == "a//b/ nil 1")
    }

    @Test func twoParametersInOnePatternComeInItsOrder() throws {
        var router = Router()
        router.get("/people/:person/notes/:note/*", Self.echo)
        router.get("/people/:person/notes/:note", Self.echo)
        #expect(text(try router.respond(to: Request(path: "/people/ada/notes/7"))) == "person=ada note=7 via /people/:person/notes/:note")
        let rest = try router.respond(to: Request(path: "/people/ada/notes/7/x/y"))
        #expect(text(rest) == "person=ada note=7 *=x/y via /people/:person/notes/:note/*")
    }

    /// Every candidate below matches the path; only the winner's names and values reach the handler.
    @Test(arguments: [false, true])
    func aLosingCandidatesParametersDoNotLeak(reversed: Bool) throws {
        var patterns = ["/:kind/:key/-/update", "/items/:other/*", "/items/:key/-/update", "/items/:id/-/:action", "/*"]
        if reversed { patterns.reverse() }
        var router = Router()
        for pattern in patterns { router.post(pattern, Self.echo) }
        router.get("/items/:id/-/update", Self.echo)
        router.post("/seen/:a/:b") { request in
            .text(request.parameters == ["b": "2", "a": "1"] && request.parameters["*"] == nil ? "equal" : "different")
        }
        #expect(text(try router.respond(to: Request(method: .post, path: "/items/7/-/update"))) == "key=7 via /items/:key/-/update")
        #expect(text(try router.respond(to: Request(method: .post, path: "/items/7/-/delete"))) == "id=7 action=delete via /items/:id/-/:action")
        #expect(text(try router.respond(to: Request(method: .post, path: "/items/7/x"))) == "other=7 *=x via /items/:other/*")
        #expect(text(try router.respond(to: Request(method: .head, path: "/items/7/-/update"))) == "id=7 via /items/:id/-/update")
        #expect(text(try router.respond(to: Request(method: .post, path: "/seen/1/2"))) == "equal")
    }

    /// A literal compares as Swift's strings do (canonical equivalence), byte for byte or not.
    @Test func aLiteralSegmentMatchesACanonicallyEquivalentOne() throws {
        var router = Router()
        router.get("/K/:id", Self.echo)
        router.get("/caf\u{E9}/:id", Self.echo)
        #expect(text(try router.respond(to: Request(path: "/\u{212A}/1"))) == "id=1 via /K/:id")
        #expect(text(try router.respond(to: Request(path: "/cafe\u{301}/2"))) == "id=2 via /caf\u{E9}/:id")
        #expect(throws: HTTPError.self) { try router.respond(to: Request(path: "/k/1")) }
        #expect(throws: HTTPError.self) { try router.respond(to: Request(path: "/cafe/1")) }
    }

    @Test func routeParametersReadLikeADictionary() {
        var parameters: RouteParameters = ["id": "42", "kind": "note"]
        #expect(parameters["id"] == "42" && parameters["kind"] == "note" && parameters["other"] == nil)
        parameters["id"] = "43"
        parameters["extra"] = "x"
        parameters["kind"] = nil
        #expect(parameters == ["extra": "x", "id": "43"])
        #expect(parameters != ["extra": "x", "id": "42"])
        #expect(parameters != ["extra": "x"])
        #expect(Array(parameters.map(\.name)) == ["id", "extra"])
        #expect(Request(path: "/").parameters.isEmpty)
    }
}
