import Cellar
import Foundation
import HTTPTestSupport
import Showcase
import Synchronization
import Testing

/// `app.use(_:)`, over sockets: a middleware sees every request, in the order added, and may
/// answer alone or change the route's answer.
@Suite struct MiddlewareTests {
    /// Counts the requests it sees and notes their paths.
    final class Recorder: Middleware {
        let paths = Mutex<[String]>([])
        let label: String

        init(label: String) { self.label = label }

        func respond(to request: Request, next: (Request) throws -> Response) throws -> Response {
            paths.withLock { $0.append(request.path) }
            var response = try next(request)
            // Each middleware adds its label on the way out: the first added is the last to add.
            let seen = response.headers["X-Seen-By"].map { $0 + "," } ?? ""
            response.headers.replaceOrAdd(name: "X-Seen-By", value: seen + label)
            return response
        }
    }

    /// Answers `/closed` itself, with a 503, and rewrites `/old` to `/new` before routing.
    struct Gate: Middleware {
        func respond(to request: Request, next: (Request) throws -> Response) throws -> Response {
            if request.path == "/closed" { throw HTTPError(.serviceUnavailable, "Closed for the night.") }
            if request.path == "/teapot" { return Response(status: HTTPStatus(code: 418), body: .bytes(Array("short and stout".utf8))) }
            var request = request
            if request.path == "/old" { request.path = "/new" }
            return try next(request)
        }
    }

    @Test func aMiddlewareSeesEveryRequestAndChangesTheResponse() throws {
        let outer = Recorder(label: "outer")
        let inner = Recorder(label: "inner")
        let server = try TestServer { app in
            try Showcase.install(in: app, peopleCount: 10, listbenchCount: 10, bigCount: 10)
            app.route(.post, "/notes") { _ in .text("noted") }
            app.use(outer)
            app.use(inner)
        }
        let targets = ["/people", "/people.json", "/people/1", "/healthz", "/static/app.css"]
        for target in targets {
            let response = try server.get(target)
            #expect(response.headers["X-Seen-By"] == "inner,outer", "\(target)")
        }
        #expect(try TestHTTPClient.send("POST", "/notes", port: server.port).headers["X-Seen-By"] == "inner,outer")
        // A route's error passes through the middleware as an error, rendered after the outermost.
        let missing = try server.get("/nowhere")
        #expect(missing.status == 404)
        #expect(missing.headers["X-Seen-By"] == nil)
        #expect(outer.paths.withLock { $0 } == targets + ["/notes", "/nowhere"])
        #expect(inner.paths.withLock { $0 } == targets + ["/notes", "/nowhere"])
    }

    @Test func aMiddlewareCanAnswerAloneOrRewriteTheRequest() throws {
        let server = try TestServer { app in
            app.route(.get, "/new") { request in .text("new at \(request.path)") }
            app.route(.get, "/closed") { _ in .text("open") }
            app.use(Gate())
        }
        let closed = try server.getAcceptingJSON("/closed")
        #expect(closed.status == 503)
        #expect(try closed.json()["error"]?["message"] == .string("Closed for the night."))
        let closedPage = try server.get("/closed")
        #expect(closedPage.status == 503)
        #expect(closedPage.text.contains("Closed for the night."))
        let teapot = try server.get("/teapot")
        #expect(teapot.status == 418)
        #expect(teapot.text == "short and stout")
        #expect(try server.get("/old").text == "new at /new")
    }

    @Test func theRouteAMiddlewarePassesOnIsCountedUnderItsPattern() throws {
        let server = try TestServer { app in
            app.route(.get, "/notes/:id") { _ in .text("a note") }
            app.use(Gate())
        }
        #expect(try server.get("/notes/7").status == 200)
        // The server reports a request once it is done, which may be just after the client has it.
        var metrics = ""
        let deadline = ContinuousClock.now + .seconds(30)
        repeat {
            metrics = try server.get("/metrics").text
            if metrics.contains("route=\"/notes/:id\"") { break }
            usleep(20_000)
        } while ContinuousClock.now < deadline
        #expect(metrics.contains("route=\"/notes/:id\""), "\(metrics)")
    }
}
