import Cellar
import Foundation
import HTTPTestSupport
import MicroHTTP
import Synchronization
import Testing

/// An app whose lists wait for something outside the process (``App/mountWhenReachable(_:reason:_:)``),
/// served through a ``DeferredStart``: alive and not ready, 503 with `Retry-After` where the lists
/// will be, then — once the attempt mounts them — the same answers as an app started with them.
@Suite struct DeferredStartTests {
    /// What the attempt sees and does, shared with the test.
    final class Store: Sendable {
        let reachable = Atomic<Bool>(false)
        let refuses = Atomic<Bool>(false)
        let attempts = Atomic<Int>(0)
        let failed = Atomic<Bool>(false)

        var attemptCount: Int { attempts.load(ordering: .relaxed) }
        var hasFailed: Bool { failed.load(ordering: .relaxed) }
    }

    struct Refusal: Error, CustomStringConvertible {
        var description: String { "the store refuses this app" }
    }

    /// The lists the attempt mounts, and what a server started with them mounts.
    static func mountLines(_ app: App) {
        app.list("/lines", title: "Lines") { _ in ChangingController(version: 1) }
        app.indexList(at: "/", title: "All")
    }

    /// A server as `serve` starts one whose lists wait for `store`.
    final class WaitingServer {
        let logs = LogRecorder()
        let app: App
        let start: DeferredStart
        let server: Server

        init(_ store: Store) throws {
            app = App(publicDirectory: Repository.publicDirectory, logger: logs.logger)
            try app.register(PlainTextCell.self)
            app.mountWhenReachable("lines store", reason: "not there at start") { app in
                store.attempts.add(1, ordering: .relaxed)
                if store.refuses.load(ordering: .relaxed) { throw Refusal() }
                guard store.reachable.load(ordering: .relaxed) else { return .notYet(reason: "not there yet") }
                DeferredStartTests.mountLines(app)
                return .mounted
            }
            try app.validate()
            start = DeferredStart(app: app)
            let configuration = ServerConfiguration(
                host: "127.0.0.1", port: 0, threads: 2, errorRenderer: start.errorRenderer, bufferedResponseBytes: app.bufferedResponseBytes)
            server = Server(configuration: configuration, responder: start, logger: logs.logger, observer: app.metrics)
            try server.start()
            try start.start { _ in store.failed.store(true, ordering: .relaxed) }
        }

        deinit {
            start.stop()
            server.stop(gracePeriod: .seconds(2))
        }

        func get(_ target: String, headers: [(String, String)] = []) throws -> TestHTTPResponse {
            try TestHTTPClient.send("GET", target, port: server.port, headers: headers, timeout: .seconds(60))
        }
    }

    /// Polls `condition` every 0.1 s for up to 30 s: the thread tries again after 0.5 s, then up to 5 s apart.
    static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return try condition()
    }

    @Test func itAnswers503UntilTheListsAreMountedThenAsAnAppStartedWithThem() throws {
        let store = Store()
        let waiting = try WaitingServer(store)
        #expect(try waiting.get("/healthz").status == 200)
        let readiness = try waiting.get("/readyz")
        #expect(readiness.status == 503)
        #expect(readiness.text.contains("{\"name\":\"lines store\",\"ok\":false,"), "\(readiness.text)")
        #expect(try waiting.get("/static/app.css").status == 200)
        for target in ["/lines", "/", "/lines/1"] {
            let page = try waiting.get(target)
            #expect(page.status == 503, "\(target)")
            #expect(page.headers["Retry-After"] == "5", "\(target)")
            #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true, "\(target)")
            #expect(page.text.contains("Not available yet: lines store cannot be reached"), "\(target): \(page.text.prefix(300))")
        }
        for (target, headers) in [("/lines.json", []), ("/lines", [("Accept", "application/json")])] {
            let json = try waiting.get(target, headers: headers)
            #expect(json.status == 503, "\(target)")
            #expect(json.headers["Retry-After"] == "5", "\(target)")
            #expect(json.headers["Content-Type"]?.hasPrefix("application/json") == true, "\(target)")
            #expect(try json.json()["error"]?["status"] == .integer(503), "\(target)")
        }
        // Tried again, and not ready meanwhile.
        #expect(Self.eventually { store.attemptCount >= 2 })
        #expect(!waiting.start.isComplete)
        #expect(try waiting.get("/lines").status == 503)

        store.reachable.store(true, ordering: .relaxed)
        #expect(Self.eventually { waiting.start.isComplete })
        #expect(try waiting.get("/readyz").status == 200)
        let started = try TestServer { app in
            try app.register(PlainTextCell.self)
            Self.mountLines(app)
        }
        for target in ["/lines", "/lines.json", "/", "/index.json"] {
            let late = try waiting.get(target)
            let reference = try started.get(target)
            #expect(late.status == 200, "\(target): \(late.text.prefix(300))")
            #expect(late.text == reference.text, "\(target)")
            #expect(late.headers["ETag"] == reference.headers["ETag"], "\(target)")
        }
        // The error pages are the whole app's too: their way back leads to the index now.
        let missing = try waiting.get("/no-such-list/at/all")
        #expect(missing.status == 404)
        #expect(missing.text.contains("<p><a href=\"/\">All lists</a></p>"), "\(missing.text)")
        #expect(!store.hasFailed)
        #expect(waiting.logs.all.contains { $0.message.hasPrefix("ready") })
    }

    @Test func anAttemptThatThrowsEndsTheStart() throws {
        let store = Store()
        store.refuses.store(true, ordering: .relaxed)
        let waiting = try WaitingServer(store)
        #expect(Self.eventually { store.hasFailed })
        #expect(waiting.start.failure is Refusal)
        #expect(!waiting.start.isComplete)
        let critical = waiting.logs.waitForEntry { $0.level == .critical }
        #expect(critical?.metadata["error"] == "the store refuses this app")
        #expect(store.attemptCount == 1, "not tried again")
    }

    @Test func stoppingWhileWaitingEndsTheAttempts() throws {
        let store = Store()
        let waiting = try WaitingServer(store)
        // Two attempts (0.5 s, then 1 s apart): the next would come 2 s later, the one after 4 s later.
        #expect(Self.eventually { store.attemptCount >= 2 })
        waiting.start.stop()
        let made = store.attemptCount
        Thread.sleep(forTimeInterval: 5)
        #expect(store.attemptCount == made)
        #expect(try waiting.get("/lines").status == 503, "the server answers until it is stopped itself")
    }
}
