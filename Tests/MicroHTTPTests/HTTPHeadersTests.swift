import MicroHTTP
import Testing

@Suite struct HTTPHeadersTests {
    @Test func lookupIsCaseInsensitiveAndOrdered() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(headers.map(\.name) == ["Content-Type", "Set-Cookie", "set-cookie"])
    }

    @Test func replaceOrAddKeepsOne() {
        var headers: HTTPHeaders = ["A": "1", "b": "2", "a": "3"]
        headers.replaceOrAdd(name: "a", value: "x")
        #expect(headers.values(for: "A") == ["x"])
        #expect(headers.map(\.name) == ["a", "b"])
        headers.replaceOrAdd(name: "C", value: "y")
        #expect(headers["c"] == "y")
        headers.remove(name: "B")
        #expect(!headers.contains("b"))
    }

    @Test func headerInjectionIsStripped() {
        var headers = HTTPHeaders()
        headers.add(name: "Location", value: "/ok\r\nSet-Cookie: evil=1")
        headers.add(name: "X-Bad\r\nName", value: "v")
        #expect(headers["Location"] == "/okSet-Cookie: evil=1")
        #expect(headers["X-BadName"] == "v")
        for (name, value) in headers {
            #expect(!name.contains("\r") && !name.contains("\n") && !value.contains("\r") && !value.contains("\n"))
        }
    }

    @Test func prefersJSON() {
        func request(_ accept: String?) -> Request {
            Request(path: "/", headers: accept.map { ["Accept": $0] } ?? [:])
        }
        #expect(request("application/json").prefersJSON)
        #expect(request("application/problem+json, */*").prefersJSON)
        #expect(!request("text/html,application/xhtml+xml,application/json;q=0.9").prefersJSON)
        #expect(request("application/json, text/html").prefersJSON)
        #expect(!request("*/*").prefersJSON)
        #expect(!request(nil).prefersJSON)
    }
}
