import Cellar
import MicroHTTP
import Synchronization
import Testing

/// `/readyz`: ready with every check passed, 503 with `Retry-After` and the reason otherwise, and
/// ready again when the check passes; `/healthz` answers meanwhile.
@Suite struct ReadinessTests {
    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "the <b>search</b> index is \"down\"" }
    }

    @Test func anAppWithoutChecksIsReady() throws {
        let server = try TestServer { _ in }
        let ready = try server.get("/readyz")
        #expect(ready.status == 200)
        #expect(ready.headers["Cache-Control"] == "no-store")
        #expect(ready.headers["Retry-After"] == nil)
        #expect(try ready.json() == .object(["status": .string("ready"), "checks": .array([])]))
    }

    @Test func aFailingCheckMakesTheAppUnavailableUntilItPasses() throws {
        let failing = Atomic<Bool>(true)
        let server = try TestServer { app in
            app.addReadinessCheck("cache") {}
            app.addReadinessCheck("search") { if failing.load(ordering: .relaxed) { throw Unreachable() } }
            app.addReadinessCheck("queue") { throw HTTPError(.serviceUnavailable, "The queue is full.") }
            // A check added again under its name replaces the first.
            app.addReadinessCheck("queue") {}
        }
        let unavailable = try server.get("/readyz")
        #expect(unavailable.status == 503)
        #expect(unavailable.headers["Retry-After"] == "5")
        #expect(unavailable.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(!unavailable.text.contains("<b>"))
        #expect(
            try unavailable.json()
                == .object([
                    "status": .string("unavailable"),
                    "checks": .array([
                        .object(["name": .string("cache"), "ok": .bool(true)]),
                        .object(["name": .string("search"), "ok": .bool(false), "error": .string("the <b>search</b> index is \"down\"")]),
                        .object(["name": .string("queue"), "ok": .bool(true)]),
                    ]),
                ]))
        #expect(try server.get("/healthz").status == 200)
        failing.store(false, ordering: .relaxed)
        #expect(try server.get("/readyz").status == 200)
    }

    @Test func anHTTPErrorShowsItsMessage() throws {
        let server = try TestServer { app in
            app.addReadinessCheck("database") { throw HTTPError(.serviceUnavailable, "The database cannot be read just now.") }
        }
        let body = try server.get("/readyz").json()
        #expect(
            body["checks"]
                == .array([.object(["name": .string("database"), "ok": .bool(false), "error": .string("The database cannot be read just now.")])]))
    }
}
