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

    @Test func namesKeepExactlyTheTokenCharactersOfRFC9110() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        for byte in UInt8(0x20)...UInt8(0x7E) {
            var headers = HTTPHeaders()
            // A long name too, so the check runs over a native string's storage as well as a small one.
            let name = String(decoding: [UInt8(ascii: "X")] + [byte] + Array("-Padding-Beyond-Fifteen-Bytes".utf8), as: UTF8.self)
            headers.add(name: name, value: "v")
            let kept = headers.map(\.name)[0]
            #expect(kept == (tchar.contains(byte) ? name : name.filter { $0.asciiValue != byte }), "byte \(byte)")
        }
    }

    @Test func valuesLoseCRLFAndNULWhereverTheyAre() {
        let long = String(repeating: "default-src 'self'; ", count: 10)
        for bad in ["\r", "\n", "\u{0}"] {
            for value in ["a\(bad)b", long + bad, bad + long, long + bad + long] {
                var headers = HTTPHeaders()
                headers.add(name: "X", value: value)
                #expect(headers["X"] == value.replacingOccurrences(of: bad, with: ""))
            }
        }
        // At every offset of a word and its neighbours (values are tested eight bytes at a
        // time), and next to the bytes one bit away from CR, LF and NUL.
        for bad in ["\r", "\n", "\u{0}"] {
            for offset in 0..<24 {
                let value = String(repeating: "\u{0C}\u{0B}\u{01}\u{0E}\u{8}\u{1}x\u{7F}", count: 3).prefix(offset) + bad + "abcdefghijklmnopq"
                var headers = HTTPHeaders()
                headers.add(name: "X", value: String(value))
                #expect(headers["X"] == value.replacingOccurrences(of: bad, with: ""), "offset \(offset)")
            }
        }
        let nearMisses = String(repeating: "\u{0C}\u{0B}\u{01}\u{0E}\u{8}\u{1}x\u{7F}\u{8D}", count: 5)
        var kept = HTTPHeaders()
        kept.add(name: "X", value: nearMisses)
        #expect(kept["X"] == nearMisses)
        var clean = HTTPHeaders()
        clean.add(name: "Content-Security-Policy", value: long)
        #expect(clean["content-security-policy"] == long)
    }

    @Test func namesCompareCaseInsensitivelyOnlyForLetters() {
        let headers: HTTPHeaders = ["X-Request-ID": "1", "A^B": "2", "Cache-Control-Extension-Long-Name": "3"]
        #expect(headers["x-request-id"] == "1")
        #expect(headers["X-REQUEST-ID"] == "1")
        #expect(headers["X-Request-I"] == nil)
        #expect(headers["X-Request-IDs"] == nil)
        #expect(headers["X_Request-ID"] == nil)
        #expect(headers["a~b"] == nil)
        #expect(headers["a^b"] == "2")
        #expect(headers["CACHE-control-EXTENSION-long-name"] == "3")
        #expect(headers["Cache-Control-Extension-Long-Nam"] == nil)
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
