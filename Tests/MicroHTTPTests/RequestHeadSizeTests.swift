import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing

/// Request heads near the connection's memory: each gets exactly one whole answer, never a closed
/// connection without one (libmicrohttpd closes silently when the response head no longer fits).
@Suite struct RequestHeadSizeTests {
    /// Answers 200 with a header that repeats the query, as a list's `Link` header does, and a few more.
    static let router: Router = {
        var router = Router()
        router.get("/echo") { request in
            var response = Response.text("echo\n")
            response.headers.add(
                name: "Link", value: "</echo?\(request.rawQuery ?? "")>; rel=\"next\", </echo?\(request.rawQuery ?? "")>; rel=\"first\"")
            response.headers.add(name: "Cache-Control", value: "no-cache")
            response.headers.add(name: "Vary", value: "Accept, HX-Request")
            return response
        }
        return router
    }()

    /// A request head of exactly `size` bytes: the query (`query` bytes of it) and an `X-Pad` field fill it.
    static func head(size: Int, query: Int = 0) -> [UInt8] {
        let line = "GET /echo" + (query > 0 ? "?q=" + String(repeating: "q", count: query) : "") + " HTTP/1.1\r\n"
        let fixed = line.utf8.count + "Host: x\r\n".utf8.count + "X-Pad: \r\n".utf8.count + 2
        precondition(size >= fixed, "a head of \(size) bytes cannot hold a query of \(query)")
        return Array((line + "Host: x\r\nX-Pad: " + String(repeating: "p", count: size - fixed) + "\r\n\r\n").utf8)
    }

    /// Sends `bytes` on a new connection and reads until the server closes it or `timeout` passes.
    static func exchange(_ bytes: [UInt8], port: Int, timeout: Duration = .seconds(5)) throws -> [UInt8] {
        let client = try TestHTTPClient(port: port)
        try client.sendRaw(bytes)
        return try client.readUntilClosed(timeout: timeout)
    }

    /// How many responses the bytes hold (status lines at the start or after a blank line).
    static func statusLines(_ bytes: [UInt8]) -> Int {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").count - 1
    }

    @Test(arguments: [32 * 1024, 16 * 1024])
    func aHeadAtTheLimitIsAnsweredAndOneByteMoreGets431(memory: Int) throws {
        let configuration = ServerConfiguration(port: 0, threads: 2, connectionMemoryLimit: memory)
        let limit = configuration.largestRequestHead
        #expect(limit == memory / 4)
        try withServer(Self.router, configuration: configuration) { server in
            // At the limit, with the query repeated twice in the response head.
            for query in [0, limit / 2, limit - 100] {
                let client = try TestHTTPClient(port: server.port)
                try client.sendRaw(Self.head(size: limit, query: query))
                let response = try client.readResponse()
                #expect(response.status == 200, "query \(query)")
                #expect(response.text == "echo\n")
                #expect(response.headers["Link"]?.count ?? 0 > 2 * query)
                // The connection stays open for the next request.
                try client.sendRaw(Self.head(size: 200))
                #expect(try client.readResponse().status == 200)
            }
            let over = try Self.exchange(Self.head(size: limit + 1), port: server.port)
            let text = String(decoding: over, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 431 "), "\(text.prefix(80))")
            #expect(Self.statusLines(over) == 1)
            #expect(text.contains("\r\nConnection: close\r\n"))
            #expect(text.hasSuffix("The request head is \(limit + 1) bytes; this server accepts at most \(limit).\n"))
            #expect(try fetch(server, "/echo").status == 200)
        }
    }

    /// Many short fields fill libmicrohttpd's records of them long before the head's bytes reach
    /// the limit: up to 100 fields are read, more get one short 431, whatever their number.
    @Test func aHundredFieldsAreReadAndMoreGet431() throws {
        try withServer(Self.router) { server in
            // Not 455 or 456: there libmicrohttpd's records fill its memory exactly and it closes the
            // connection with no answer before Cellar is asked (the C peer on it does the same).
            for count in [99, 100, 101, 200, 440, 445, 450, 453, 460, 500, 2_000] {
                // `Host`, `Connection` and count - 2 fields of seven bytes or so: far under the 8 KiB a head may take.
                let fields = (2..<count).map { "a\($0):b\r\n" }.joined()
                let head = "GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(fields)\r\n"
                let bytes = try Self.exchange(Array(head.utf8), port: server.port)
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(Self.statusLines(bytes) == 1, "\(count) fields: \(text.prefix(60))")
                if count <= ServerConfiguration.largestFieldCount {
                    #expect(text.hasPrefix("HTTP/1.1 200 "), "\(count) fields")
                } else {
                    #expect(text.hasPrefix("HTTP/1.1 431 "), "\(count) fields")
                    if count < 455 {
                        // Above that libmicrohttpd refuses the head itself, before Cellar sees it.
                        #expect(text.hasSuffix("The request has \(count) header fields; this server accepts at most 100.\n"), "\(count)")
                    }
                }
            }
        }
    }

    /// libmicrohttpd is not shown the query (the server parses its own copy): it kept a record of
    /// every item, and some 500 short items stalled the request with no answer until a timeout.
    @Test func thousandsOfQueryItemsAreParsedByTheServerAlone() throws {
        var router = Router()
        router.get("/count") { request in
            Response.text("\(request.query.count) \(request.rawQuery?.utf8.count ?? -1) \(request.path)\n")
        }
        try withServer(router) { server in
            // Up to 6 KB of query: within the 8 KiB a head may take.
            for count in [1, 400, 500, 1_000] {
                let query = (0..<count).map { "\($0 % 10)=%3C" }.joined(separator: "&")
                let response = try TestHTTPClient.send("GET", "/count?\(query)", port: server.port, timeout: .seconds(5))
                #expect(response.status == 200, "\(count) items")
                #expect(response.text == "\(count) \(query.utf8.count) /count\n", "\(count) items")
            }
            let empty = try fetch(server, "/count?")
            #expect(empty.text == "0 0 /count\n")
        }
    }

    /// A handler's header fields larger than half the connection's memory cannot be sent: a 500
    /// that says so, and the error logged, instead of a connection closed without an answer.
    @Test func aResponseHeadTooLargeForTheConnectionGets500() throws {
        var router = Router()
        router.get("/wide") { request in
            var response = Response.text("wide\n")
            let size = Int(request.query["size"] ?? "") ?? 0
            response.headers.add(name: "X-Wide", value: String(repeating: "w", count: size))
            return response
        }
        let logs = LogRecorder()
        try withServer(router, logs: logs) { server in
            let fits = try fetch(server, "/wide?size=15000")
            #expect(fits.status == 200)
            #expect(fits.headers["X-Wide"]?.count == 15000)
            let client = try TestHTTPClient(port: server.port)
            // Over the bound, and far over what libmicrohttpd can send.
            for size in [17_000, 40_000] {
                try client.sendRaw(TestHTTPClient.requestBytes("GET", "/wide?size=\(size)"))
                let refused = try client.readResponse()
                #expect(refused.status == 500)
                #expect(refused.headers["X-Wide"] == nil)
            }
            // The connection is kept.
            try client.sendRaw(TestHTTPClient.requestBytes("GET", "/wide?size=10"))
            #expect(try client.readResponse().status == 200)
        }
        #expect(logs.all.contains { $0.message == "Response head too large" && Int($0.metadata["bytes"] ?? "") ?? 0 > 17000 })
    }

    /// Every size from a small head to half the connection's memory (where libmicrohttpd stops
    /// reading and answers 431 itself), in the field or in the query: one whole answer each.
    @Test func everyHeadUpToHalfTheMemoryGetsOneWholeAnswer() throws {
        let configuration = ServerConfiguration(port: 0, threads: 2)
        let limit = configuration.largestRequestHead
        try withServer(Self.router, configuration: configuration) { server in
            for size in stride(from: 200, through: configuration.connectionMemoryLimit / 2 - 400, by: 397) {
                for query in [0, min(size - 60, limit - 100)] where query >= 0 {
                    let bytes = try Self.exchange(
                        Self.head(size: size, query: query) + Array("GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
                        port: server.port)
                    let text = String(decoding: bytes, as: UTF8.self)
                    if size <= limit {
                        // Both pipelined requests are answered.
                        #expect(text.hasPrefix("HTTP/1.1 200 ") && Self.statusLines(bytes) == 2, "\(size) bytes, query \(query): \(text.prefix(60))")
                    } else {
                        #expect(text.hasPrefix("HTTP/1.1 431 ") && Self.statusLines(bytes) == 1, "\(size) bytes, query \(query): \(text.prefix(60))")
                    }
                }
            }
        }
    }
}
