import Cellar
import HTTPTestSupport
import Testing

/// Forged requests, over sockets: Go 1.25's `CrossOriginProtection` rule, which every app has
/// unless it turns it off. A refused request gets 403 in the site's error shape (HTML or JSON).
@Suite struct CrossOriginProtectionTests {
    /// An app whose routes answer every method with 200 "changed".
    static func server(_ configure: (App) -> Void = { _ in }) throws -> TestServer {
        try TestServer { app in
            for method in [HTTPMethod.get, .post, .put, .patch, .delete] {
                app.route(method, "/notes") { _ in .text("changed") }
            }
            configure(app)
        }
    }

    static func send(_ method: String, to server: TestServer, _ headers: [(String, String)]) throws -> TestHTTPResponse {
        try TestHTTPClient.send(method, "/notes", port: server.port, headers: headers, body: Array("title=x".utf8))
    }

    @Test(arguments: ["cross-site", "same-site"])
    func aPostFromAnotherSiteIsRefused(site: String) throws {
        let server = try Self.server()
        let page = try Self.send("POST", to: server, [("Sec-Fetch-Site", site), ("Accept", "text/html")])
        #expect(page.status == 403)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("came from another site"))
        #expect(!page.text.contains("changed"))
        let json = try Self.send("POST", to: server, [("Sec-Fetch-Site", site), ("Accept", "application/json")])
        #expect(json.status == 403)
        let error = try json.json()["error"]
        #expect(error?["status"] == .integer(403))
        #expect(error?["message"]?.string?.contains("came from another site") == true)
    }

    @Test(arguments: ["PUT", "PATCH", "DELETE"])
    func everyMethodThatChangesSomethingIsChecked(method: String) throws {
        let server = try Self.server()
        #expect(try Self.send(method, to: server, [("Sec-Fetch-Site", "cross-site")]).status == 403)
        #expect(try Self.send(method, to: server, [("Sec-Fetch-Site", "same-origin")]).status == 200)
    }

    @Test(arguments: ["same-origin", "none"])
    func aPostFromThisSiteOrTheAddressBarIsAllowed(site: String) throws {
        let server = try Self.server()
        // Even with an Origin that is not the host: Sec-Fetch-Site decides when it is there.
        let response = try Self.send("POST", to: server, [("Sec-Fetch-Site", site), ("Origin", "https://elsewhere.example")])
        #expect(response.status == 200)
        #expect(response.text == "changed")
    }

    @Test func withoutSecFetchSiteTheOriginMustBeTheHostWithItsPort() throws {
        let server = try Self.server()
        let host = "127.0.0.1:\(server.port)"
        #expect(try Self.send("POST", to: server, [("Host", host), ("Origin", "http://\(host)")]).status == 200)
        // The scheme is not compared (Host has none); the port is.
        #expect(try Self.send("POST", to: server, [("Host", host), ("Origin", "https://\(host)")]).status == 200)
        let otherPort = try Self.send("POST", to: server, [("Host", host), ("Origin", "http://127.0.0.1")])
        #expect(otherPort.status == 403)
        #expect(otherPort.text.contains("no Sec-Fetch-Site"))
        #expect(try Self.send("POST", to: server, [("Host", host), ("Origin", "http://evil.example")]).status == 403)
        #expect(try Self.send("POST", to: server, [("Host", host), ("Origin", "null")]).status == 403)
    }

    @Test func aRequestWithNeitherHeaderIsNoBrowsersAndIsAllowed() throws {
        let server = try Self.server()
        let response = try Self.send("POST", to: server, [])
        #expect(response.status == 200)
        #expect(response.text == "changed")
        // Empty fields are no fields (Go reads them so).
        #expect(try Self.send("POST", to: server, [("Sec-Fetch-Site", ""), ("Origin", "")]).status == 200)
        #expect(try Self.send("POST", to: server, [("Sec-Fetch-Site", ""), ("Origin", "http://evil.example")]).status == 403)
    }

    @Test func aGetIsNeverRefused() throws {
        let server = try Self.server()
        for headers in [[("Sec-Fetch-Site", "cross-site")], [("Origin", "http://evil.example")]] {
            #expect(try TestHTTPClient.send("GET", "/notes", port: server.port, headers: headers).status == 200)
            #expect(try TestHTTPClient.send("HEAD", "/notes", port: server.port, headers: headers).status == 200)
        }
    }

    @Test func aTrustedOriginOrAnExemptRequestIsAllowedAndTheProtectionCanBeTurnedOff() throws {
        let trusting = try Self.server { app in
            app.crossOriginProtection = CrossOriginProtection(trustedOrigins: ["https://admin.example"]) { request in
                request.headers["X-Test-Exempt"] == "yes"
            }
        }
        #expect(try Self.send("POST", to: trusting, [("Sec-Fetch-Site", "cross-site"), ("Origin", "https://admin.example")]).status == 200)
        #expect(try Self.send("POST", to: trusting, [("Sec-Fetch-Site", "cross-site"), ("Origin", "https://other.example")]).status == 403)
        #expect(try Self.send("POST", to: trusting, [("Sec-Fetch-Site", "cross-site"), ("X-Test-Exempt", "yes")]).status == 200)
        let unprotected = try Self.server { app in app.crossOriginProtection = nil }
        #expect(try Self.send("POST", to: unprotected, [("Sec-Fetch-Site", "cross-site")]).status == 200)
    }

    @Test func noPageCanBeFramedByAnotherSite() throws {
        let server = try TestServer.showcase(people: 20, listbench: 20, big: 20)
        for target in ["/people", "/people/1", "/no-such-page"] {
            let response = try server.get(target)
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8", "\(target)")
            #expect(response.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true, "\(target)")
        }
    }
}
