import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing

/// The request-head deadline (``ServerConfiguration/headerTimeout``): slowloris clients are cut,
/// whatever their pace, while normal and slow-to-answer requests are not.
///
/// A deadline that must fire is short (1 s) only where the client deliberately stays much longer
/// without a complete head. Where the client makes requests on time, the deadline is several
/// seconds, so that a loaded machine (a sanitizer, another build) cannot stretch its normal steps
/// (connect and send, read a response and send the next head) past it.
@Suite struct HeadTimeoutTests {
    /// `/slow` sleeps `?ms=` milliseconds.
    static func router() -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.get("/slow") { request in
            usleep(UInt32(request.query["ms"].flatMap { Int($0) } ?? 0) * 1000)
            return .text("late")
        }
        return router
    }

    /// One second for a head; the idle timeout (reset by every byte) stays long.
    static let configuration = ServerConfiguration(port: 0, threads: 2, connectionTimeout: 30, headerTimeout: 1)

    @Test func tricklingClientIsCutAfterTheDeadline() throws {
        try withServer(Self.router(), configuration: Self.configuration) { server in
            // Before the connection exists, so before the server starts its deadline.
            let started = ContinuousClock.now
            let trickler = try TestHTTPClient(port: server.port, timeout: .seconds(10))
            let head = Array("GET /hello HTTP/1.1\r\nHost: localhost\r\nX-Padding: \(String(repeating: "p", count: 200))\r\n\r\n".utf8)
            var sent = 0
            var cut = false
            // A byte every 300 ms: far inside the idle timeout, so only the head deadline can cut it. The head needs 80 s.
            while sent < head.count - 4 && ContinuousClock.now - started < .seconds(30) {
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
            // Never before the deadline: `started` precedes the connection, so this holds however loaded the machine.
            #expect(ContinuousClock.now - started >= .seconds(1))
            // The server goes on serving.
            #expect(try fetch(server, "/hello").status == 200)
        }
    }

    @Test func idleKeepAliveConnectionIsCutButSlowResponsesAreNot() throws {
        // A deadline this client's prompt steps stay far inside, even on a loaded machine.
        let deadline = 4
        var configuration = Self.configuration
        configuration.headerTimeout = deadline
        try withServer(Self.router(), configuration: configuration) { server in
            let client = try TestHTTPClient(port: server.port, timeout: .seconds(30))
            // The handler takes longer than the deadline and a sweep interval (at most 1 s): the head
            // was complete, so the wait for it ended and the connection is not cut meanwhile.
            let slow = try client.request("GET", "/slow?ms=\((deadline + 2) * 1000)")
            #expect(slow.status == 200)
            #expect(slow.text == "late")
            // Between requests the connection waits for a head again; a prompt next request is served.
            let lastRequestSent = ContinuousClock.now
            #expect(try client.request("GET", "/hello").status == 200)
            // Then, idle, it is closed once the deadline has passed (the idle timeout is 30 s).
            #expect(client.waitForClose(timeout: .seconds(30)))
            // Not before: the wait for the next head began after the request above was sent.
            #expect(ContinuousClock.now - lastRequestSent >= .seconds(deadline))
        }
    }

    @Test func zeroTurnsTheDeadlineOff() throws {
        var configuration = Self.configuration
        configuration.headerTimeout = 0
        try withServer(Self.router(), configuration: configuration) { server in
            let client = try TestHTTPClient(port: server.port)
            try client.sendRaw("GET /hello HTTP/1.1\r\n")
            // Well past the 1 s deadline the same configuration has otherwise (a loaded machine only waits longer).
            #expect(!client.waitForClose(timeout: .milliseconds(2500)))
            try client.sendRaw("Host: x\r\n\r\n")
            #expect(try client.readResponse().status == 200)
        }
    }
}
