import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing

/// The request-head deadline (``ServerConfiguration/headerTimeout``): slowloris clients are cut,
/// whatever their pace, while normal and slow-to-answer requests are not.
@Suite struct HeadTimeoutTests {
    static func router() -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.get("/slow") { _ in
            usleep(2_500_000)
            return .text("late")
        }
        return router
    }

    /// One second for a head; the idle timeout (reset by every byte) stays long.
    static let configuration = ServerConfiguration(port: 0, threads: 2, connectionTimeout: 30, headerTimeout: 1)

    @Test func tricklingClientIsCutAfterTheDeadline() throws {
        try withServer(Self.router(), configuration: Self.configuration) { server in
            let trickler = try TestHTTPClient(port: server.port, timeout: .seconds(2))
            let head = Array("GET /hello HTTP/1.1\r\nHost: localhost\r\nX-Padding: \(String(repeating: "p", count: 200))\r\n\r\n".utf8)
            let started = ContinuousClock.now
            var sent = 0
            var cut = false
            // A byte every 300 ms: far inside the idle timeout, so only the head deadline can cut it. The head needs 80 s.
            while sent < head.count - 4 && ContinuousClock.now - started < .seconds(20) {
                do {
                    try trickler.sendRaw([head[sent]])
                } catch {
                    cut = true
                    break
                }
                sent += 1
                if trickler.waitForClose(timeout: .milliseconds(300)) {
                    cut = true
                    break
                }
            }
            #expect(cut, "the trickling client was not cut (sent \(sent) bytes in \(ContinuousClock.now - started))")
            // Never before the deadline.
            #expect(ContinuousClock.now - started >= .milliseconds(900))
            // The server goes on serving.
            #expect(try fetch(server, "/hello").status == 200)
        }
    }

    @Test func idleKeepAliveConnectionIsCutButSlowResponsesAreNot() throws {
        try withServer(Self.router(), configuration: Self.configuration) { server in
            let client = try TestHTTPClient(port: server.port, timeout: .seconds(10))
            // The handler takes 2.5 s, longer than the head deadline: the head was complete, so it is not cut.
            let slow = try client.request("GET", "/slow")
            #expect(slow.status == 200)
            #expect(slow.text == "late")
            // Between requests the connection waits for a head again; a prompt next request is served.
            #expect(try client.request("GET", "/hello").status == 200)
            // Then, idle, it is closed once the deadline has passed (the idle timeout is 30 s).
            #expect(client.waitForClose(timeout: .seconds(10)))
        }
    }

    @Test func zeroTurnsTheDeadlineOff() throws {
        var configuration = Self.configuration
        configuration.headerTimeout = 0
        try withServer(Self.router(), configuration: configuration) { server in
            let client = try TestHTTPClient(port: server.port)
            try client.sendRaw("GET /hello HTTP/1.1\r\n")
            #expect(!client.waitForClose(timeout: .milliseconds(2500)))
            try client.sendRaw("Host: x\r\n\r\n")
            #expect(try client.readResponse().status == 200)
        }
    }
}
