import HTTPTestSupport
import MicroHTTP
import Testing

/// Heads that RFC 9112 tells a server to refuse, sent byte for byte over a real socket.
///
/// libmicrohttpd 0.9.75 answers 200 to each of the refused ones; the server checks them in the
/// first access-handler call and answers 400 through the error page, then closes.
@Suite struct RequestHeadTests {
    static func router() -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.post("/echo") { request in .text(String(decoding: request.body, as: UTF8.self)) }
        return router
    }

    /// Sends `head` on a fresh connection and reads one response.
    static func send(_ server: Server, _ head: String) throws -> (response: TestHTTPResponse, closed: Bool) {
        let client = try TestHTTPClient(port: server.port)
        try client.sendRaw(head)
        let response = try client.readResponse()
        return (response, client.waitForClose(timeout: .seconds(5)))
    }

    @Test(arguments: [
        (
            "two different Content-Length values", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
            "Content-Length"
        ),
        (
            "Transfer-Encoding with Content-Length",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n",
            "Transfer-Encoding"
        ),
        (
            "Content-Length after Transfer-Encoding",
            "POST /echo HTTP/1.1\r\nHost: x\r\ntransfer-encoding: chunked\r\ncontent-length: 4\r\n\r\n4\r\nabcd\r\n0\r\n\r\n",
            "Transfer-Encoding"
        ),
        ("no Host in HTTP/1.1", "GET /hello HTTP/1.1\r\n\r\n", "Host"),
        ("two Host fields", "GET /hello HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", "Host"),
        ("two identical Host fields", "GET /hello HTTP/1.1\r\nHost: x\r\nHost: x\r\n\r\n", "Host"),
        ("a space before the colon", "GET /hello HTTP/1.1\r\nHost: x\r\nFoo : bar\r\n\r\n", "field name"),
        ("a tab before the colon", "GET /hello HTTP/1.1\r\nHost: x\r\nFoo\t: bar\r\n\r\n", "field name"),
        ("a space inside a field name", "GET /hello HTTP/1.1\r\nHost: x\r\nX Y: z\r\n\r\n", "field name"),
        ("an empty field name", "GET /hello HTTP/1.1\r\n: empty\r\nHost: x\r\n\r\n", "field name"),
    ])
    func refusedWith400(_ name: String, _ head: String, _ mentions: String) throws {
        try withServer(Self.router()) { server in
            let (response, closed) = try Self.send(server, head)
            #expect(response.status == 400, "\(name)")
            #expect(response.text.contains(mentions), "\(name): \(response.text)")
            #expect(response.headers["Content-Type"]?.hasPrefix("text/html") == true, "\(name)")
            #expect(closed, "\(name): the connection must be closed after the 400")
        }
    }

    @Test func refusalIsJSONWhenAcceptAsksForIt() throws {
        try withServer(Self.router()) { server in
            let (response, _) = try Self.send(
                server, "POST /echo HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd")
            #expect(response.status == 400)
            #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
            #expect(response.text.contains("\"status\":400"), "\(response.text)")
        }
    }

    @Test func acceptedHeads() throws {
        try withServer(Self.router()) { server in
            // Identical Content-Length values are one value (RFC 9110 §8.6): the body is framed the same either way.
            let identical = try Self.send(
                server, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 4\r\nConnection: close\r\n\r\nabcd")
            #expect(identical.response.status == 200)
            #expect(identical.response.text == "abcd")
            // HTTP/1.0 may omit Host.
            #expect(try Self.send(server, "GET /hello HTTP/1.0\r\n\r\n").response.status == 200)
            // Token characters in names, and host in any case.
            let ordinary = try Self.send(server, "GET /hello HTTP/1.1\r\nhOsT: x\r\nX-A.b_c~1!#$%&'*+^`|: v\r\nConnection: close\r\n\r\n")
            #expect(ordinary.response.status == 200)
            // A keep-alive connection goes on after a normal request.
            let client = try TestHTTPClient(port: server.port)
            #expect(try client.request("GET", "/hello").status == 200)
            #expect(try client.request("GET", "/hello").status == 200)
        }
    }
}
