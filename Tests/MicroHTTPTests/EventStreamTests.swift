import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing

/// Server-Sent Events over real sockets. Serialized: some open hundreds of connections.
@Suite(.serialized) struct EventStreamTests {
    /// The streams the handler made, in order, and how each ended.
    final class Streams: @unchecked Sendable {
        private let lock = NSLock()
        private var streams: [EventStream] = []
        private var reasons: [EventStream.CloseReason] = []
        let group = EventStreamGroup()

        func add(_ stream: EventStream) {
            stream.onClose { [weak self] reason in self?.lock.withLock { self?.reasons.append(reason) } }
            group.add(stream)
            lock.withLock { streams.append(stream) }
        }

        var all: [EventStream] { lock.withLock { streams } }
        var closeReasons: [EventStream.CloseReason] { lock.withLock { reasons } }

        /// The `index`th stream, once the handler has made it.
        func stream(_ index: Int) throws -> EventStream {
            _ = EventStreamTests.waitUntil { self.all.count > index }
            return try #require(all.count > index ? all[index] : nil)
        }
    }

    /// Waits until `condition` holds, up to `timeout`; returns whether it did. Returns as soon as it holds.
    @discardableResult
    static func waitUntil(timeout: Duration = .seconds(30), _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    static func router(_ streams: Streams, maxQueuedBytes: Int = 256 * 1024) -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hi") }
        router.get("/events") { request in
            let stream = EventStream(maxQueuedBytes: maxQueuedBytes)
            streams.add(stream)
            // The app decides what to replay from Last-Event-ID; here it only says what it read.
            if let last = request.headers["Last-Event-ID"] { stream.send(ServerSentEvent(data: "after \(last)", event: "resume")) }
            return .events(stream)
        }
        return router
    }

    static func configuration(threads: Int = 2, heartbeat: Int = 15) -> ServerConfiguration {
        ServerConfiguration(port: 0, threads: threads, eventStreamHeartbeat: heartbeat)
    }

    @Test func eventsArriveInOrderWithTheirFraming() throws {
        let streams = Streams()
        try withServer(Self.router(streams), configuration: Self.configuration()) { server in
            let client = try EventStreamClient(port: server.port, target: "/events")
            #expect(client.status == 200)
            #expect(client.header("Content-Type") == "text/event-stream")
            #expect(client.header("X-Accel-Buffering") == "no")
            #expect(client.header("Cache-Control") == "no-cache")
            #expect(client.header("Transfer-Encoding") == "chunked")
            let stream = try streams.stream(0)
            var expected: [EventStreamClient.Event] = []
            for number in 1...100 {
                let data = number % 3 == 0 ? "line \(number)\nsecond\r\nthird" : "event \(number)"
                let name = number % 5 == 0 ? "tick" : nil
                #expect(stream.send(ServerSentEvent(data: data, id: "\(number)", event: name)) == .queued)
                expected.append(.init(type: name ?? "message", data: data.replacingOccurrences(of: "\r\n", with: "\n"), lastEventID: "\(number)"))
                if number == 50 {
                    // Half of them after the first have been read, while the connection waits suspended.
                    for index in 0..<10 { #expect(try client.nextEvent(timeout: .seconds(20)) == expected[index]) }
                    expected.removeFirst(10)
                }
            }
            stream.sendComment("a note")
            stream.close(with: ServerSentEvent(data: "bye", retry: .seconds(3)))
            expected.append(.init(data: "bye", lastEventID: "100"))
            #expect(stream.send(ServerSentEvent(data: "late")) == .closed)
            #expect(try client.eventsUntilEnd(timeout: .seconds(20)) == expected)
            #expect(client.retry == 3000)
            #expect(client.comments >= 1)
            #expect(Self.waitUntil { streams.closeReasons == [.closed] }, "\(streams.closeReasons)")
            #expect(Self.waitUntil { server.openEventStreams == 0 })
        }
    }

    @Test func lastEventIDIsReadableFromTheRequest() throws {
        let streams = Streams()
        try withServer(Self.router(streams), configuration: Self.configuration()) { server in
            let client = try EventStreamClient(port: server.port, target: "/events", headers: [("Last-Event-ID", "41")])
            #expect(try client.nextEvent(timeout: .seconds(20)) == .init(type: "resume", data: "after 41"))
            try streams.stream(0).close()
            #expect(try client.eventsUntilEnd(timeout: .seconds(20)).isEmpty)
        }
    }

    /// 200 streams on 2 worker threads: none holds a thread, so ordinary requests are still
    /// answered, and every stream receives every broadcast.
    @Test func twoHundredStreamsOnTwoWorkersAllReceiveABroadcast() throws {
        let streams = Streams()
        var configuration = Self.configuration(threads: 2)
        configuration.eventStreamsPerAddress = 256  // all from 127.0.0.1
        try withServer(Self.router(streams), configuration: configuration) { server in
            var clients: [EventStreamClient] = []
            for _ in 0..<200 { clients.append(try EventStreamClient(port: server.port, target: "/events")) }
            #expect(clients.allSatisfy { $0.status == 200 })
            #expect(Self.waitUntil { streams.group.count == 200 && server.openEventStreams == 200 })
            #expect(try fetch(server, "/hello").text == "hi", "a worker is free while 200 streams are open")
            for round in 1...3 {
                let result = streams.group.broadcast(ServerSentEvent(data: "round \(round)", id: "\(round)"))
                #expect(result == .init(queued: 200, overflowed: 0))
            }
            for client in clients {
                for round in 1...3 {
                    #expect(try client.nextEvent(timeout: .seconds(20)) == .init(data: "round \(round)", lastEventID: "\(round)"))
                }
            }
            streams.group.closeAll()
            for client in clients { #expect(try client.eventsUntilEnd(timeout: .seconds(20)).isEmpty && client.ended) }
            #expect(Self.waitUntil { streams.closeReasons.count == 200 })
            #expect(Set(streams.closeReasons) == [.closed])
            #expect(Self.waitUntil { streams.group.count == 0 && server.openEventStreams == 0 })
        }
    }

    @Test func aVanishedClientIsReleasedAfterAHeartbeat() throws {
        let streams = Streams()
        try withServer(Self.router(streams), configuration: Self.configuration(heartbeat: 1)) { server in
            let listening = try EventStreamClient(port: server.port, target: "/events")
            try listening.waitForComments(2, timeout: .seconds(30))
            #expect(listening.comments >= 2, "heartbeats arrive")
            let leaving = try EventStreamClient(port: server.port, target: "/events")
            let stream = try streams.stream(1)
            leaving.close()
            #expect(Self.waitUntil { stream.closeReason == .clientDisconnected }, "released after a heartbeat's write failed")
            #expect(stream.isClosed)
            #expect(stream.send(ServerSentEvent(data: "to nobody")) == .closed)
            #expect(Self.waitUntil { server.openEventStreams == 1 })
            #expect(try streams.stream(0).closeReason == nil, "the other stream is still open")
        }
    }

    /// A client that stops reading: the queue stays within its bound, the app is told once, and
    /// the one event it sends instead (a refresh) arrives after the events the client had.
    @Test func aStalledReadersQueueOverflowsInsteadOfGrowing() throws {
        let streams = Streams()
        let bound = 64 * 1024
        try withServer(Self.router(streams, maxQueuedBytes: bound), configuration: Self.configuration()) { server in
            let client = try EventStreamClient(port: server.port, target: "/events", receiveBuffer: 4096)
            let stream = try streams.stream(0)
            let overflows = Counter()
            stream.onOverflow { overflows.increment() }
            let payload = String(repeating: "x", count: 1000)
            let before = ProcessMemory.residentBytes() ?? 0
            var sent = 0
            var result = EventStream.SendResult.queued
            // Far more than the kernel's socket buffers hold (a few MiB on loopback), sent as fast as the queue takes them.
            while result == .queued && sent < 200_000 {
                sent += 1
                result = stream.send(ServerSentEvent(data: payload, id: "\(sent)"))
                if sent % 64 == 0 { usleep(1000) }
            }
            #expect(result == .overflowed, "after \(sent) events")
            #expect(stream.isOverflowed)
            #expect(stream.queuedBytes <= bound)
            #expect(overflows.value == 1)
            #expect(stream.send(ServerSentEvent(data: payload)) == .overflowed, "refused until replaced")
            #expect(overflows.value == 1, "told once per overflow")
            if !Sanitizers.isAddressSanitizerActive {
                let grown = (ProcessMemory.residentBytes() ?? 0) - before
                #expect(grown < 64 << 20, "RSS grew by \(grown >> 20) MiB")
            }
            #expect(stream.replaceQueued(with: ServerSentEvent(data: "refresh", event: "refresh")) == .queued)
            #expect(!stream.isOverflowed)
            stream.close()
            let events = try client.eventsUntilEnd(timeout: .seconds(60))
            let ids = events.dropLast().compactMap { Int($0.lastEventID) }
            #expect(events.last?.type == "refresh")
            #expect(ids.count == events.count - 1 && ids == ids.sorted() && Set(ids).count == ids.count, "in order, none twice")
            #expect(ids.count < sent - 1, "events were dropped")
            #expect(events.dropLast().allSatisfy { $0.data == payload }, "no event arrives cut")
        }
    }

    @Test func capsAnswer503WithRetryAfter() throws {
        let streams = Streams()
        var configuration = Self.configuration(heartbeat: 1)
        configuration.eventStreamLimit = 3
        configuration.eventStreamsPerAddress = 2
        try withServer(Self.router(streams), configuration: configuration) { server in
            let first = try EventStreamClient(port: server.port, target: "/events")
            let second = try EventStreamClient(port: server.port, target: "/events")
            let overAddress = try EventStreamClient(port: server.port, target: "/events")
            #expect(first.status == 200 && second.status == 200)
            #expect(overAddress.status == 503)
            #expect(overAddress.header("Retry-After") == "\(ServerConfiguration.eventStreamRetryAfter)")
            #expect(String(decoding: overAddress.body, as: UTF8.self).contains("Your address has 2 live event streams open"))
            let other = try EventStreamClient(port: server.port, target: "/events", sourceAddress: "127.0.0.2")
            #expect(other.status == 200)
            let overTotal = try EventStreamClient(port: server.port, target: "/events", sourceAddress: "127.0.0.3")
            #expect(overTotal.status == 503)
            #expect(overTotal.header("Retry-After") != nil)
            #expect(String(decoding: overTotal.body, as: UTF8.self).contains("3 live event streams open"))
            #expect(try fetch(server, "/hello").status == 200, "ordinary requests are not capped by streams")
            // The refused streams were told; a freed place is taken again.
            #expect(Self.waitUntil { streams.closeReasons.filter { $0 == .refused }.count == 2 })
            first.close()
            #expect(Self.waitUntil { server.openEventStreams == 2 }, "released after a heartbeat")
            let again = try EventStreamClient(port: server.port, target: "/events")
            #expect(again.status == 200)
        }
    }

    /// A browser going from page to page closes each page's stream; a suspended connection does
    /// not notice until its next write, so a new stream over a cap first lets go of the ones whose
    /// clients have gone, rather than answering 503 for streams no one reads.
    @Test func streamsWhoseClientsHaveGoneMakeRoomUnderTheCaps() throws {
        let streams = Streams()
        var configuration = Self.configuration(heartbeat: 600)
        configuration.eventStreamLimit = 3
        configuration.eventStreamsPerAddress = 2
        try withServer(Self.router(streams), configuration: configuration) { server in
            let first = try EventStreamClient(port: server.port, target: "/events")
            let second = try EventStreamClient(port: server.port, target: "/events")
            #expect(first.status == 200 && second.status == 200)
            // One of them goes away; the other still reads.
            let gone = try streams.stream(0)
            first.close()
            let third = try Self.admitted(port: server.port)
            #expect(third?.status == 200, "the closed stream made room")
            #expect(Self.waitUntil { gone.closeReason == .clientDisconnected })
            #expect(try streams.stream(1).closeReason == nil, "a stream still read is kept")
            let fourth = try EventStreamClient(port: server.port, target: "/events")
            #expect(fourth.status == 503, "two open streams from the address: still its cap")
            // The total cap the same way: two from another address fill it, one goes away.
            let other = try EventStreamClient(port: server.port, target: "/events", sourceAddress: "127.0.0.2")
            #expect(other.status == 200)
            second.close()
            let fromThird = try Self.admitted(port: server.port, sourceAddress: "127.0.0.3")
            #expect(fromThird?.status == 200, "the total cap made room too")
            #expect(server.openEventStreams <= 3)
        }
    }

    /// A stream opened as soon as the server has seen a client's close: the first tries may come
    /// before the close reaches the server's socket (and at the total cap the server looks again
    /// only a second later). Nil if none is admitted in 200 tries, 50 ms apart.
    static func admitted(port: Int, sourceAddress: String? = nil) throws -> EventStreamClient? {
        for _ in 0..<200 {
            let client = try EventStreamClient(port: port, target: "/events", sourceAddress: sourceAddress)
            if client.status == 200 { return client }
            usleep(50_000)
        }
        return nil
    }

    @Test func stopEndsFiftyStreamsWithinTheGrace() throws {
        let streams = Streams()
        var configuration = Self.configuration()
        configuration.port = 0
        let server = Server(configuration: configuration, responder: Self.router(streams), logger: LogRecorder().logger)
        try server.start()
        var clients: [EventStreamClient] = []
        for _ in 0..<50 { clients.append(try EventStreamClient(port: server.port, target: "/events")) }
        #expect(Self.waitUntil { server.openEventStreams == 50 })
        streams.group.broadcast(ServerSentEvent(data: "before the stop"))
        let started = ContinuousClock.now
        server.stop(gracePeriod: .seconds(30))
        #expect(ContinuousClock.now - started < .seconds(30), "every stream ended before the grace ran out")
        for client in clients {
            #expect(try client.eventsUntilEnd(timeout: .seconds(20)) == [.init(data: "before the stop")])
            #expect(client.ended)
        }
        #expect(Self.waitUntil { streams.closeReasons.count == 50 })
        #expect(Set(streams.closeReasons) == [.serverStopping])
        #expect(!server.isRunning)
    }

    /// A suspended stream is not cut by the idle timeout nor by the head deadline.
    @Test func aLiveStreamOutlivesTheTimeouts() throws {
        let streams = Streams()
        var configuration = Self.configuration(heartbeat: 3600)
        configuration.connectionTimeout = 1
        configuration.headerTimeout = 1
        try withServer(Self.router(streams), configuration: configuration) { server in
            let client = try EventStreamClient(port: server.port, target: "/events")
            let stream = try streams.stream(0)
            sleep(4)
            #expect(stream.closeReason == nil)
            #expect(stream.send(ServerSentEvent(data: "still here")) == .queued)
            #expect(try client.nextEvent(timeout: .seconds(20)) == .init(data: "still here"))
        }
    }

    @Test func aHeadRequestGetsNoStream() throws {
        let streams = Streams()
        try withServer(Self.router(streams), configuration: Self.configuration()) { server in
            let response = try fetch(server, "/events", method: "HEAD")
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "text/event-stream")
            #expect(Self.waitUntil { streams.closeReasons == [.refused] })
            #expect(server.openEventStreams == 0)
        }
    }
}

/// A counter the tests read from another thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
