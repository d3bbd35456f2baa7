import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP
import Testing

/// `--database postgres://…` with the server down at start: Cellar starts all the same, alive and
/// not ready, answers the lists 503 with `Retry-After`, and serves them by itself once the server
/// is up — the same bytes as a start with it up. A refusal (the password) still ends the start.
/// In the parity suite, so that no parity test runs while the cluster is stopped.
extension PostgresListTests {
    /// A server started as `serve` starts one over `--database url`: `mountDatabaseFromCommandLine`,
    /// the app's check, and a ``DeferredStart`` when the database was not reached.
    final class CommandLineServer {
        let app: App
        let start: DeferredStart?
        let server: Server

        init(database url: String) throws {
            var quiet = Logger(label: "cellar-database-test")
            quiet.logLevel = .error
            app = App(publicDirectory: ListTestServer.publicDirectory, logger: quiet)
            app.databasePath = url
            try app.mountDatabaseFromCommandLine()
            try app.validate()
            start = app.deferredMounts.isEmpty ? nil : DeferredStart(app: app)
            let configuration = ServerConfiguration(
                host: "127.0.0.1", port: 0, threads: 2, errorRenderer: start?.errorRenderer ?? app.errorRenderer,
                bufferedResponseBytes: app.bufferedResponseBytes)
            let responder: any HTTPResponder = if let start { start } else { app.makeRouter() }
            server = Server(configuration: configuration, responder: responder, logger: app.logger, observer: app.metrics)
            try server.start()
            try start?.start { error in Issue.record("the deferred start failed: \(error)") }
        }

        deinit {
            start?.stop()
            server.stop(gracePeriod: .seconds(2))
        }

        func get(_ target: String, headers: [(String, String)] = []) throws -> TestHTTPResponse {
            try TestHTTPClient.send("GET", target, port: server.port, headers: headers, timeout: .seconds(60))
        }
    }

    @Test func aDatabaseDownAtStartIsNotReadyAnswers503ThenServesByItself() throws {
        let fixture = try fixture
        try PostgresConnectionTests.cluster("stop")
        var restarted = false
        defer { if !restarted { try? PostgresConnectionTests.cluster("start") } }

        let late = try CommandLineServer(database: fixture.readerURL)
        #expect(late.start != nil, "started without its database")
        #expect(try late.get("/healthz").status == 200, "alive")
        let readiness = try late.get("/readyz")
        #expect(readiness.status == 503)
        #expect(readiness.text.contains("{\"name\":\"database \(PostgresListFixture.databaseName)\",\"ok\":false,"), "\(readiness.text)")
        try expectNoPassword(readiness, "/readyz")
        for (target, headers, type) in [
            ("/wines", [], "text/html"), ("/", [], "text/html"), ("/grapes/7", [], "text/html"),
            ("/wines.json?sort=-vintage", [], "application/json"),
            ("/wines", [("Accept", "application/json")], "application/json"),
        ] {
            let answer = try late.get(target, headers: headers)
            #expect(answer.status == 503, "\(target): \(answer.text.prefix(300))")
            #expect(answer.headers["Retry-After"] == "5", "\(target)")
            #expect(answer.headers["Content-Type"]?.hasPrefix(type) == true, "\(target): \(answer.headers["Content-Type"] ?? "")")
            #expect(answer.text.contains("database \(PostgresListFixture.databaseName) cannot be reached"), "\(target)")
            try expectNoPassword(answer, target)
        }
        try expectNoPassword(try late.get("/metrics"), "/metrics")

        try PostgresConnectionTests.cluster("start")
        restarted = true
        // The first attempts again come 0.5 s, 1 s, 2 s, then 5 s apart: 30 s is ample.
        var ready = try late.get("/readyz")
        for _ in 1..<60 where ready.status != 200 {
            Thread.sleep(forTimeInterval: 0.5)
            ready = try late.get("/readyz")
        }
        #expect(ready.status == 200, "\(ready.text)")
        let started = try CommandLineServer(database: fixture.readerURL)
        #expect(started.start == nil, "started with its database")
        for target in ["/", "/index.json", "/wines", "/wines.json?sort=-vintage&limit=9", "/grapes/7", "/stock.json?sort=-bottles", "/wines.csv"] {
            let answer = try late.get(target)
            let reference = try started.get(target)
            #expect(answer.status == 200, "\(target): \(answer.text.prefix(300))")
            #expect(answer.text == reference.text, "\(target): \(Self.difference(reference.text, answer.text))")
            #expect(answer.headers["ETag"] == reference.headers["ETag"], "\(target)")
        }
        #expect(try late.get("/readyz").text == started.get("/readyz").text)
    }

    /// Reached and refused: not a server to wait for.
    @Test func aRefusedPasswordOrDatabaseStillEndsTheStart() throws {
        let fixture = try fixture
        let wrongPassword = fixture.readerURL.replacing(fixture.readerPassword, with: "not-" + fixture.readerPassword)
        let noDatabase = fixture.readerURL.replacing("/\(PostgresListFixture.databaseName)", with: "/no_such_database")
        #expect(noDatabase != fixture.readerURL)
        for (url, why) in [(wrongPassword, "password authentication failed"), (noDatabase, "3D000")] {
            let app = App(publicDirectory: ListTestServer.publicDirectory)
            app.databasePath = url
            do {
                try app.mountDatabaseFromCommandLine()
                Issue.record("\(why): started")
            } catch let error as DatabaseOpenError {
                #expect(!error.isTransient, "\(error)")
                #expect("\(error)".contains("Cannot serve the PostgreSQL database") && "\(error)".contains(why), "\(error)")
                #expect(!"\(error)".contains(fixture.readerPassword), "\(error)")
            }
            #expect(app.deferredMounts.isEmpty, "\(why)")
        }
    }
}
