import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP
import Synchronization
import Testing

@Suite struct ServerLifecycleTests {
    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test func portZeroBindsAnEphemeralPort() throws {
        let server = Server(configuration: ServerConfiguration(port: 0, threads: 1), responder: Router(), logger: Self.logger)
        try server.start()
        #expect(server.port > 0)
        #expect(server.isRunning)
        #expect(throws: ServerError.alreadyStarted) { try server.start() }
        server.stop(gracePeriod: .zero)
        #expect(!server.isRunning)
    }

    @Test func invalidConfigurationIsRefused() {
        #expect(throws: ServerError.invalidHost("example.com")) {
            try Server(configuration: ServerConfiguration(host: "example.com", port: 0), responder: Router(), logger: Self.logger).start()
        }
        #expect(throws: ServerError.self) {
            try Server(configuration: ServerConfiguration(port: 70_000), responder: Router(), logger: Self.logger).start()
        }
        #expect(throws: ServerError.self) {
            try Server(configuration: ServerConfiguration(port: 0, threads: 0), responder: Router(), logger: Self.logger).start()
        }
    }

    @Test func secondServerOnTheSamePortFailsToBind() throws {
        let first = Server(configuration: ServerConfiguration(port: 0, threads: 1), responder: Router(), logger: Self.logger)
        try first.start()
        defer { first.stop(gracePeriod: .zero) }
        let second = Server(configuration: ServerConfiguration(port: first.port, threads: 1), responder: Router(), logger: Self.logger)
        do {
            try second.start()
            Issue.record("expected bindFailed")
        } catch {
            guard case .bindFailed(_, let port, let reason) = error else { Issue.record("got \(error)"); return }
            #expect(port == first.port)
            #expect(reason.contains("in use"), "\(reason)")
        }
    }

    @Test func hostsResolve() throws {
        for host in ["localhost", "0.0.0.0", "::1", "[::1]"] {
            let server = Server(configuration: ServerConfiguration(host: host, port: 0, threads: 1), responder: Router(), logger: Self.logger)
            try server.start()
            #expect(server.port > 0, "\(host)")
            server.stop(gracePeriod: .zero)
        }
    }

    /// A started server on a free port with four worker threads, answering `GET /hello`.
    static func startedHelloServer() throws -> Server {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        let server = Server(configuration: ServerConfiguration(port: 0, threads: 4), responder: router, logger: logger)
        try server.start()
        return server
    }

    /// Servers stopped while their worker threads are busy with connections. With `MHD_quiesce_daemon` this
    /// aborted now and then in libmicrohttpd 0.9.75 ("Failed to remove listen FD from epoll set"); the
    /// listening socket is now the server's own (see Listener), so the workers have none to race over.
    @Test func stoppingWhileClientsAreConnected() throws {
        for round in 0..<20 {
            let server = try Self.startedHelloServer()
            let idle = try TestHTTPClient(port: server.port)
            #expect(try idle.request("GET", "/hello").status == 200)
            let partial = try TestHTTPClient(port: server.port)
            try partial.sendRaw("GET /hel")
            let fresh = try TestHTTPClient(port: server.port)
            server.stop(gracePeriod: round % 2 == 0 ? .zero : .milliseconds(50))
            #expect(!server.isRunning)
            #expect(throws: TestHTTPClientError.self) { try TestHTTPClient.send("GET", "/hello", port: server.port, timeout: .seconds(2)) }
            _ = fresh
        }
    }

    /// Stops servers while a client thread keeps opening connections and making requests, so the
    /// worker threads are awake in their event loops while the server stops accepting.
    @Test func stoppingWhileRequestsArrive() throws {
        for _ in 0..<30 {
            let server = try Self.startedHelloServer()
            let port = server.port
            let done = Atomic<Bool>(false)
            let hammering = Thread {
                while !done.load(ordering: .relaxed) {
                    _ = try? TestHTTPClient.send("GET", "/hello", port: port, timeout: .seconds(2))
                }
            }
            hammering.start()
            usleep(20_000)
            server.stop(gracePeriod: .milliseconds(20))
            done.store(true, ordering: .relaxed)
            #expect(!server.isRunning)
            while !hammering.isFinished { usleep(1_000) }
        }
    }

    /// Responses answered while the server stops close their connection, and say so once, even
    /// when the handler said it too.
    @Test func responsesAnsweredWhileStoppingSayConnectionClose() throws {
        let late = try Self.answerWhileStopping { .text("late") }
        #expect(late.text == "late")
        #expect(late.headers.values(for: "Connection") == ["close"])
        let own = try Self.answerWhileStopping { Response(status: .ok, headers: ["connection": "close"], body: .bytes(Array("own".utf8))) }
        #expect(own.text == "own")
        #expect(own.headers.values(for: "Connection").map { $0.lowercased() } == ["close"])
    }

    /// Starts a server whose handler returns `makeResponse()` only once the server has begun to stop; the response.
    ///
    /// In order, whatever the machine's load: the request is in the handler, then the stop begins
    /// (the test sees new connections refused), then the handler returns.
    static func answerWhileStopping(_ makeResponse: @escaping @Sendable () -> Response) throws -> TestHTTPResponse {
        let entered = Flag()
        let stopping = Flag()
        var router = Router()
        router.get("/wait") { _ in
            entered.raise()
            _ = stopping.wait(timeout: .seconds(60))
            return makeResponse()
        }
        let server = Server(configuration: ServerConfiguration(port: 0, threads: 2), responder: router, logger: Self.logger)
        try server.start()
        let client = try TestHTTPClient(port: server.port, timeout: .seconds(60))
        try client.sendRaw(TestHTTPClient.requestBytes("GET", "/wait"))
        #expect(entered.wait(timeout: .seconds(30)), "the request did not reach its handler")
        let stopped = Flag()
        Thread {
            server.stop(gracePeriod: .seconds(60))
            stopped.raise()
        }.start()
        #expect(StreamingTests.connectionRefused(port: server.port, within: .seconds(30)), "the stop did not begin")
        stopping.raise()
        let answer = try client.readResponse()
        #expect(stopped.wait(timeout: .seconds(60)))
        return answer
    }

    @Test func connectionLimitsStillApply() throws {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        let configuration = ServerConfiguration(port: 0, threads: 2, perIPConnectionLimit: 2)
        try withServer(router, configuration: configuration) { server in
            let first = try TestHTTPClient(port: server.port)
            let second = try TestHTTPClient(port: server.port)
            #expect(try first.request("GET", "/hello").status == 200)
            #expect(try second.request("GET", "/hello").status == 200)
            // A third connection from the same address is closed at once.
            let third = try TestHTTPClient(port: server.port)
            #expect(third.waitForClose(timeout: .seconds(5)))
        }
    }

    /// A responder of its own: one that only answers names no route; one that names its own is heard.
    @Test func aResponderOfItsOwnNamesItsRouteOrNone() throws {
        struct Plain: HTTPResponder {
            func respond(to request: Request) throws -> Response { .text("plain") }
        }
        struct Naming: HTTPResponder {
            func respond(to request: Request) throws -> Response { .text("named") }
            func respond(to request: Request, matchedRoute: inout String?) throws -> Response {
                matchedRoute = "/everything"
                return try respond(to: request)
            }
        }
        for (responder, route) in [(Plain() as any HTTPResponder, nil), (Naming(), "/everything")] as [(any HTTPResponder, String?)] {
            let observer = RecordingObserver()
            try withServer(responder, observer: observer) { server in
                let client = try TestHTTPClient(port: server.port)
                #expect(try client.request("GET", "/anything").status == 200)
                client.close()
                let summary = observer.waitForSummary { $0.path == "/anything" }
                #expect(summary != nil)
                #expect(summary?.route == route)
            }
        }
    }

    @Test func observerSeesConnectionsAndRoutes() throws {
        let observer = RecordingObserver()
        var router = Router()
        router.get("/people/:id") { _ in .text("x") }
        router.get("/gone/:id") { _ in throw HTTPError.notFound() }
        try withServer(router, observer: observer) { server in
            let client = try TestHTTPClient(port: server.port)
            _ = try client.request("GET", "/people/1")
            _ = try client.request("HEAD", "/people/2")
            _ = try client.request("GET", "/missing")
            _ = try client.request("GET", "/gone/3")
            client.close()
            // A handler that throws still answered for its route.
            let gone = observer.waitForSummary { $0.path == "/gone/3" }
            #expect(gone?.route == "/gone/:id")
            #expect(gone?.status == .notFound)
            let first = observer.waitForSummary { $0.path == "/people/1" }
            #expect(first?.route == "/people/:id")
            #expect(first?.status == .ok)
            #expect(first?.bytesSent == 1)
            #expect(first?.outcome == .completed)
            #expect(first?.requestID.count == 16)
            #expect(observer.waitForSummary { $0.path == "/people/2" }?.bytesSent == 0)
            let missing = observer.waitForSummary { $0.path == "/missing" }
            #expect(missing?.route == nil)
            #expect(missing?.status == .notFound)
        }
        #expect(observer.connections.opened >= 1)
        #expect(observer.connections.opened == observer.connections.closed)
    }

    @Test func accessLogLineHasMetadata() throws {
        let logs = LogRecorder()
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        try withServer(router, logs: logs) { server in
            let response = try fetch(server, "/hello?x=1")
            let id = try #require(response.headers["X-Request-ID"])
            let deadline = ContinuousClock.now + .seconds(30)
            while !logs.all.contains(where: { $0.metadata["request_id"] == id }) && ContinuousClock.now < deadline { usleep(10_000) }
            let line = try #require(logs.all.first { $0.metadata["request_id"] == id })
            #expect(line.level == .info)
            #expect(line.metadata["method"] == "GET")
            #expect(line.metadata["path"] == "/hello")
            #expect(line.metadata["status"] == "200")
            #expect(line.metadata["bytes"] == "5")
            let duration = try #require(line.metadata["duration_ms"].map { "\($0)" })
            #expect(duration.wholeMatch(of: /[0-9]+(\.[0-9]{1,3})?/) != nil, "\(duration)")
        }
    }
}
