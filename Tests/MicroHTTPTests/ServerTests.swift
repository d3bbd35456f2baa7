import HTTPTestSupport
import MicroHTTP
import Testing

struct Boom: Error, CustomStringConvertible {
    var description: String { "boom: database on fire" }
}

@Suite struct ServerTests {
    static func router() -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("Hello, world") }
        router.get("/people/:id") { request in .text("person \(request.parameters["id"] ?? "")") }
        router.get("/query") { request in
            .text(request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "|") + " raw=\(request.rawQuery ?? "nil")")
        }
        router.get("/headers") { request in
            .text("x=\(request.headers["x-custom"] ?? "nil") all=\(request.headers.values(for: "X-CUSTOM").joined(separator: ","))")
        }
        router.post("/echo") { request in Response(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: .bytes(request.body)) }
        router.get("/throws") { _ in throw Boom() }
        router.get("/teapot") { _ in throw HTTPError(418, "short & <stout>") }
        router.get("/hostile-error") { _ in throw HTTPError(400, "a\u{2028}b\u{202E}c\u{1}d\u{85}'\"<") }
        router.get("/inject") { _ in Response(status: .ok, headers: ["X-Note": "a\r\nSet-Cookie: evil=1"], body: .bytes(Array("ok".utf8))) }
        router.get("/csp") { _ in Response(status: .ok, headers: ["Content-Security-Policy": "default-src 'none'"], body: .empty) }
        return router
    }

    @Test func routesOverTheWire() throws {
        try withServer(Self.router()) { server in
            let hello = try fetch(server, "/hello")
            #expect(hello.status == 200)
            #expect(hello.text == "Hello, world")
            #expect(hello.headers["Content-Type"] == "text/plain; charset=utf-8")
            #expect(hello.headers["Content-Length"] == "12")
            #expect(try fetch(server, "/people/42").text == "person 42")
            #expect(try fetch(server, "/people/J%C3%BCrgen").text == "person Jürgen")
        }
    }

    @Test func notFoundMethodNotAllowedAndHead() throws {
        try withServer(Self.router()) { server in
            let missing = try fetch(server, "/nope")
            #expect(missing.status == 404)
            #expect(missing.text.contains("<title>404 Not Found</title>"))
            let wrongMethod = try fetch(server, "/hello", method: "DELETE")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.headers["Allow"] == "GET, HEAD, OPTIONS")
            let head = try fetch(server, "/hello", method: "HEAD")
            #expect(head.status == 200)
            #expect(head.headers["Content-Length"] == "12")
            #expect(head.body.isEmpty)
            let options = try fetch(server, "/hello", method: "OPTIONS")
            #expect(options.status == 204)
            #expect(options.headers["Allow"] == "GET, HEAD, OPTIONS")
        }
    }

    @Test func defaultHeadersAndRequestID() throws {
        try withServer(Self.router()) { server in
            let first = try fetch(server, "/hello")
            #expect(first.headers["X-Content-Type-Options"] == "nosniff")
            #expect(first.headers["Referrer-Policy"] == "strict-origin-when-cross-origin")
            #expect(first.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
            #expect(first.headers["Date"] != nil)
            let id = try #require(first.headers["X-Request-ID"])
            #expect(id.count == 16 && id.allSatisfy(\.isHexDigit))
            let second = try fetch(server, "/hello")
            #expect(second.headers["X-Request-ID"] != id)
            #expect(second.headers["X-Request-ID"]?.prefix(8) == id.prefix(8))
            // A handler's own value wins over the default.
            #expect(try fetch(server, "/csp").headers.values(for: "Content-Security-Policy") == ["default-src 'none'"])
        }
    }

    @Test func aHandlersFieldsMeetTheDefaultsByNameInAnyCase() throws {
        // 70 defaults: the 65th and later are checked by name, not by the pass's bits.
        var defaults = ServerConfiguration.securityHeaders
        for index in 0..<67 { defaults.add(name: "X-Default-\(index)", value: "d\(index)") }
        var router = Router()
        router.get("/own") { _ in
            Response(
                status: .ok,
                headers: HTTPHeaders([
                    ("content-security-policy", "default-src 'none'"), ("X-DEFAULT-0", "own 0"), ("x-default-66", "own 66"),
                    // Framing is libmicrohttpd's: a handler's value (in any case) is not sent.
                    ("content-LENGTH", "999"), ("Transfer-encoding", "gzip"), ("X-Content-Type-Option", "one short"),
                ]), body: .bytes(Array("four".utf8)))
        }
        try withServer(router, configuration: ServerConfiguration(port: 0, threads: 2, defaultHeaders: defaults)) { server in
            let response = try fetch(server, "/own")
            #expect(response.status == 200)
            #expect(response.text == "four")
            #expect(response.headers.values(for: "Content-Length") == ["4"])
            #expect(response.headers.values(for: "Transfer-Encoding") == [])
            #expect(response.headers.values(for: "Content-Security-Policy") == ["default-src 'none'"])
            #expect(response.headers.values(for: "X-Default-0") == ["own 0"])
            #expect(response.headers.values(for: "X-Default-66") == ["own 66"])
            #expect(response.headers.values(for: "X-Default-1") == ["d1"])
            #expect(response.headers.values(for: "X-Default-65") == ["d65"])
            // A name one letter short of a default's is another field: both go out.
            #expect(response.headers.values(for: "X-Content-Type-Options") == ["nosniff"])
            #expect(response.headers.values(for: "X-Content-Type-Option") == ["one short"])
        }
    }

    @Test func handlerCannotInjectHeaders() throws {
        try withServer(Self.router()) { server in
            let response = try fetch(server, "/inject")
            #expect(response.status == 200)
            #expect(response.headers["Set-Cookie"] == nil)
            #expect(response.headers["X-Note"] == "aSet-Cookie: evil=1")
        }
    }

    @Test func queryParsingOverTheWire() throws {
        try withServer(Self.router()) { server in
            #expect(
                try fetch(server, "/query?tag=a&tag=b&q=x+y&r=%20z&&e=&u=%C3%A9").text
                    == "tag=a|tag=b|q=x y|r= z|e=|u=é raw=tag=a&tag=b&q=x+y&r=%20z&&e=&u=%C3%A9")
            #expect(try fetch(server, "/query").text == " raw=nil")
            let bad = try fetch(server, "/query?a=%zz", headers: [("Accept", "application/json")])
            #expect(bad.status == 400)
            #expect(bad.headers["Content-Type"] == "application/json")
            #expect(bad.text.contains("\"status\":400"))
            #expect(try fetch(server, "/query?a=%").status == 400)
            #expect(try fetch(server, "/query?a=%25zz").text == "a=%zz raw=a=%25zz")
        }
    }

    @Test func headersAreCaseInsensitive() throws {
        try withServer(Self.router()) { server in
            let response = try fetch(server, "/headers", headers: [("X-Custom", "one"), ("x-custom", "two")])
            #expect(response.text == "x=one all=one,two")
        }
    }

    @Test func bodyWithinLimitEchoesAndBeyondIs413() throws {
        var configuration = ServerConfiguration(port: 0, threads: 2)
        configuration.maxBodySize = 64 * 1024
        try withServer(Self.router(), configuration: configuration) { server in
            let body = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let client = try TestHTTPClient(port: server.port)
            let echoed = try client.request("POST", "/echo", body: body)
            #expect(echoed.status == 200)
            #expect(echoed.body == body)
            let tooLarge = try client.request("POST", "/echo", body: [UInt8](repeating: 7, count: 200_000))
            #expect(tooLarge.status == 413)
            // The body was read and discarded, so the connection is still usable.
            if !client.isClosed {
                #expect(try client.request("GET", "/hello").text == "Hello, world")
            }
            // Chunked uploads are counted too.
            let chunk = String(repeating: "x", count: 40_000)
            let chunked = TestHTTPClient.requestBytes(
                "POST", "/echo", headers: [("Transfer-Encoding", "chunked")],
                body: Array("9c40\r\n\(chunk)\r\n9c40\r\n\(chunk)\r\n0\r\n\r\n".utf8))
            let other = try TestHTTPClient(port: server.port)
            try other.sendRaw(chunked)
            #expect(try other.readResponse(method: "POST").status == 413)
            // With Expect: 100-continue the server refuses before the body is sent.
            let expecting = try TestHTTPClient(port: server.port)
            try expecting.sendRaw("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\nExpect: 100-continue\r\n\r\n")
            #expect(try expecting.readResponse(method: "POST").status == 413)
        }
    }

    @Test func throwingHandlerGets500AndServerGoesOn() throws {
        let logs = LogRecorder()
        try withServer(Self.router(), logs: logs) { server in
            let client = try TestHTTPClient(port: server.port)
            let failed = try client.request("GET", "/throws")
            #expect(failed.status == 500)
            let id = try #require(failed.headers["X-Request-ID"])
            #expect(failed.text.contains(id))
            #expect(!failed.text.contains("database on fire"))
            #expect(try client.request("GET", "/hello").status == 200)
            let entry = logs.all.first { $0.level == .error }
            #expect(entry?.metadata["request_id"] == id)
            #expect(entry?.metadata["error"]?.contains("database on fire") == true)
        }
    }

    @Test func httpErrorIsRenderedEscapedOrAsJSON() throws {
        try withServer(Self.router()) { server in
            let html = try fetch(server, "/teapot")
            #expect(html.status == 418)
            #expect(html.text.hasPrefix("<!doctype html>"))
            #expect(html.text.contains("short &amp; &lt;stout&gt;"))
            #expect(!html.text.contains("<stout>"))
            let json = try fetch(server, "/teapot", headers: [("Accept", "application/json")])
            #expect(json.headers["Content-Type"] == "application/json")
            let id = try #require(json.headers["X-Request-ID"])
            #expect(json.text == "{\"error\":{\"status\":418,\"message\":\"short \\u0026 \\u003cstout\\u003e\",\"requestID\":\"\(id)\"}}")
        }
    }

    /// The error page escapes as a list does (both are ByteWriters' writers): in HTML, the five
    /// characters as entities and the code points HTML forbids (a C0 and a C1 control) as U+FFFD,
    /// line and bidirectional characters as they are; in JSON, U+2028 and the bidirectional
    /// controls as `\u` escapes too.
    @Test func httpErrorPagesEscapeAsListsDo() throws {
        try withServer(Self.router()) { server in
            let html = try fetch(server, "/hostile-error")
            #expect(html.status == 400)
            #expect(html.text.contains("<p>a\u{2028}b\u{202E}c\u{FFFD}d\u{FFFD}&#39;&quot;&lt;</p>"), "\(html.text)")
            let json = try fetch(server, "/hostile-error", headers: [("Accept", "application/json")])
            #expect(json.text.contains(#""message":"a\u2028b\u202ec\u0001d\#u{85}\u0027\"\u003c""#), "\(json.text)")
        }
    }

    @Test func customErrorRenderer() throws {
        var configuration = ServerConfiguration(port: 0, threads: 2)
        configuration.errorRenderer = { error, request in .text("custom \(error.status.code) \(request.path)", status: error.status) }
        try withServer(Self.router(), configuration: configuration) { server in
            let response = try fetch(server, "/missing")
            #expect(response.status == 404)
            #expect(response.text == "custom 404 /missing")
        }
    }

    @Test func keepAliveReusesTheConnection() throws {
        try withServer(Self.router()) { server in
            let client = try TestHTTPClient(port: server.port)
            for index in 0..<20 {
                let response = try client.request("GET", "/people/\(index)")
                #expect(response.text == "person \(index)")
                #expect(response.headers["Connection"]?.lowercased() != "close")
            }
            #expect(!client.isClosed)
        }
    }
}
