import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing

/// Heavier tests over real sockets; serialized so memory and connection counts are not disturbed by each other.
@Suite(.serialized) struct StreamingTests {
    /// A buffered body is counted in the configuration's object from when it is queued until
    /// libmicrohttpd lets it go; a server given no object counts into its own.
    @Test func bufferedBodiesAreCountedUntilSent() throws {
        let counted = BufferedResponseBytes()
        // Larger than what loopback's socket buffers take, so it waits while the client reads nothing.
        let size = 32 << 20
        var router = Router()
        router.get("/large") { _ in Response(body: .bytes([UInt8](repeating: UInt8(ascii: "a"), count: size))) }
        router.get("/small") { _ in .text("small") }
        func waitFor(_ condition: () -> Bool) {
            let deadline = ContinuousClock.now + .seconds(20)
            while !condition() && ContinuousClock.now < deadline { usleep(10_000) }
        }
        try withServer(router, configuration: ServerConfiguration(port: 0, threads: 2, bufferedResponseBytes: counted)) { server in
            let client = try TestHTTPClient(port: server.port)
            try client.sendRaw(TestHTTPClient.requestBytes("GET", "/large"))
            waitFor { counted.count == size }
            #expect(counted.count == size, "counted while it waits to be sent")
            #expect(try client.readResponse().body.count == size)
            #expect(try client.request("GET", "/small").status == 200)
            client.close()
            waitFor { counted.count == 0 }
            #expect(counted.count == 0, "and no longer once sent")
            #expect(server.configuration.bufferedResponseBytes === counted)
        }
        #expect(ServerConfiguration().bufferedResponseBytes !== ServerConfiguration().bufferedResponseBytes)
    }

    static func router(released: Flag = Flag(), gate: Flag = Flag()) -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hi") }
        router.get("/people/:id") { request in .text("person \(request.parameters["id"] ?? "")") }
        router.get("/stream/:bytes") { request in
            .stream(PatternProducer(total: Int(request.parameters["bytes"] ?? "") ?? 0), contentType: "application/octet-stream")
        }
        router.get("/endless") { _ in .stream(PatternProducer(total: nil, released: released), contentType: "application/octet-stream") }
        router.get("/slow") { _ in
            .stream(PatternProducer(total: 10 * 64 * 1024, pause: .milliseconds(100)), contentType: "application/octet-stream")
        }
        // Like /slow, but its second part waits until the test raises `gate`.
        router.get("/gated") { _ in
            .stream(PatternProducer(total: 10 * 64 * 1024, gate: gate), contentType: "application/octet-stream")
        }
        router.get("/failing") { _ in .stream(FailingProducer(), contentType: "text/plain") }
        return router
    }

    @Test func fiftyMegabytesStreamWholeWithBoundedMemory() throws {
        let total = 50 * 1024 * 1024
        let observer = RecordingObserver()
        try withServer(Self.router(), observer: observer) { server in
            _ = try fetch(server, "/stream/100000")  // warm up threads and buffers
            let client = try TestHTTPClient(port: server.port)
            let before = try #require(ProcessMemory.residentBytes())
            var peak = before
            var received = 0
            var intact = true
            let response = try client.request(
                "GET", "/stream/\(total)",
                onBody: { chunk in
                    if intact && !Pattern.matches(chunk, at: received) { intact = false }
                    received += chunk.count
                    if received % (1 << 20) < chunk.count { peak = max(peak, ProcessMemory.residentBytes() ?? 0) }
                })
            #expect(response.status == 200)
            #expect(response.headers["Transfer-Encoding"] == "chunked")
            #expect(received == total)
            #expect(intact)
            if !Sanitizers.isAddressSanitizerActive {
                #expect(peak - before < 16 * 1024 * 1024, "RSS grew by \((peak - before) >> 20) MiB")
            }
            let summary = observer.waitForSummary { $0.path == "/stream/\(total)" }
            #expect(summary?.bytesSent == total)
            #expect(summary?.route == "/stream/:bytes")
            #expect(summary?.outcome == .completed)
        }
    }

    @Test func headOfAStreamSendsNoBody() throws {
        try withServer(Self.router()) { server in
            let client = try TestHTTPClient(port: server.port)
            let head = try client.request("HEAD", "/stream/1000000")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            // The connection is still in step: the next response is read correctly.
            #expect(try client.request("GET", "/hello").text == "hi")
        }
    }

    @Test func manyConcurrentClients() throws {
        try withServer(Self.router()) { server in
            let count = 200
            let failures = FailureList()
            let connected = Barrier(count: count)
            let group = DispatchGroup()
            for index in 0..<count {
                group.enter()
                Thread {
                    defer { group.leave() }
                    do {
                        let client = try TestHTTPClient(port: server.port)
                        // Every client holds its own connection open until all have connected.
                        connected.arriveAndWait()
                        let path = index % 10 == 0 ? "/stream/300000" : "/people/\(index)"
                        let response = try client.request("GET", path)
                        let ok =
                            index % 10 == 0
                            ? response.body.count == 300_000 && Pattern.matches(response.body[...], at: 0)
                            : response.text == "person \(index)"
                        if response.status != 200 || !ok { failures.append("\(index): \(response.status)") }
                    } catch {
                        connected.arriveAndWait()
                        failures.append("\(index): \(error)")
                    }
                }.start()
            }
            group.wait()
            let failed = failures.all
            #expect(failed.isEmpty, "\(failed.prefix(5))")
        }
    }

    @Test func idleClientIsDroppedAfterTheTimeout() throws {
        // Long enough that the last request below (connect, then send at once) never outlasts it on
        // a loaded machine; the two idle clients wait for it together, so the test takes it once.
        var configuration = ServerConfiguration(port: 0, threads: 2)
        configuration.connectionTimeout = 3
        try withServer(Self.router(), configuration: configuration) { server in
            // Before the connection exists, so before the server starts its timeout.
            let start = ContinuousClock.now
            let silent = try TestHTTPClient(port: server.port)
            // A slow-loris client that sends half a request is dropped too.
            let partial = try TestHTTPClient(port: server.port)
            try partial.sendRaw("GET /hello HTTP/1.1\r\nHost: x\r\n")
            #expect(silent.waitForClose(timeout: .seconds(30)))
            // Not long before the timeout (libmicrohttpd may count it in whole seconds).
            #expect(ContinuousClock.now - start >= .seconds(2))
            #expect(partial.waitForClose(timeout: .seconds(30)))
            #expect(try fetch(server, "/hello").status == 200)
        }
    }

    @Test func clientVanishingMidStreamReleasesTheProducer() throws {
        let released = Flag()
        let observer = RecordingObserver()
        try withServer(Self.router(released: released), observer: observer) { server in
            let client = try TestHTTPClient(port: server.port)
            var received = 0
            struct Enough: Error {}
            do {
                _ = try client.request(
                    "GET", "/endless",
                    onBody: { chunk in
                        received += chunk.count
                        if received > 1 << 20 { throw Enough() }
                    })
            } catch is Enough {}
            client.close()
            #expect(released.wait(timeout: .seconds(10)))
            let summary = observer.waitForSummary { $0.path == "/endless" }
            #expect(summary?.outcome != .completed)
            #expect((summary?.bytesSent ?? 0) >= 1 << 20)
            #expect(try fetch(server, "/hello").status == 200)
        }
    }

    @Test func failingStreamTruncatesTheBody() throws {
        let logs = LogRecorder()
        try withServer(Self.router(), logs: logs) { server in
            let client = try TestHTTPClient(port: server.port)
            #expect(throws: TestHTTPClientError.self) { try client.request("GET", "/failing") }
            #expect(logs.all.contains { $0.level == .error && $0.message.contains("stream failed") && $0.metadata["request_id"] != nil })
            #expect(try fetch(server, "/hello").status == 200)
        }
    }

    @Test func gracefulStopFinishesInFlightAndRefusesNew() throws {
        let logs = LogRecorder()
        let gate = Flag()
        let server = Server(configuration: ServerConfiguration(port: 0, threads: 2), responder: Self.router(gate: gate), logger: logs.logger)
        try server.start()
        let port = server.port
        let client = try TestHTTPClient(port: port, timeout: .seconds(60))
        try client.sendRaw(TestHTTPClient.requestBytes("GET", "/gated"))
        let stopped = Flag()
        var refusedWhileInFlight = false
        var received = 0
        var intact = true
        let response = try client.readResponse(
            onHead: { _ in },
            onBody: { chunk in
                if received == 0 {
                    // The response is in flight (its first part is here, the rest waits for the gate): stop now.
                    Thread {
                        server.stop(gracePeriod: .seconds(60))
                        stopped.raise()
                    }.start()
                    // New connections are refused from the moment the stop begins, while this response is unfinished.
                    refusedWhileInFlight = Self.connectionRefused(port: port, within: .seconds(30))
                    gate.raise()
                }
                if !Pattern.matches(chunk, at: received) { intact = false }
                received += chunk.count
            })
        #expect(refusedWhileInFlight, "a new connection was still accepted after the stop began")
        #expect(response.status == 200)
        #expect(received == 10 * 64 * 1024)
        #expect(intact)
        #expect(stopped.wait(timeout: .seconds(60)))
        #expect(!server.isRunning)
        server.stop()  // idempotent
        #expect(throws: TestHTTPClientError.self) { try TestHTTPClient.send("GET", "/hello", port: port, timeout: .seconds(2)) }
    }

    /// Whether connecting to `port` fails within `timeout` (tried every 10 ms).
    static func connectionRefused(port: Int, within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        repeat {
            do {
                _ = try TestHTTPClient(port: port)
            } catch {
                return true
            }
            usleep(10_000)
        } while ContinuousClock.now < deadline
        return false
    }
}
