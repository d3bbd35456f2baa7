import Foundation
import HTTPTestSupport
import Testing

@testable import Cellar

/// `--trusted-proxy` and `--identity-header`: what a proxy says is believed from its addresses
/// only. The test client connects from 127.0.0.1.
@Suite struct TrustedProxiesTests {
    static func proxies(_ ranges: String...) throws -> TrustedProxies { TrustedProxies(try ranges.map { try TrustedProxies.Range($0) }) }

    @Test func rangesAndTheClientsAddress() throws {
        let proxies = try Self.proxies("10.0.0.0/8", "127.0.0.1", "fd00::/8")
        #expect(proxies.contains("10.1.2.3"))
        #expect(proxies.contains("127.0.0.1"))
        #expect(proxies.contains("::ffff:10.9.9.9"))
        #expect(proxies.contains("fd12::1"))
        #expect(!proxies.contains("11.0.0.1"))
        #expect(!proxies.contains("127.0.0.2"))
        #expect(!proxies.contains("not an address"))
        for bad in ["10.0.0.0/33", "example.com", "::/129", "10.0.0/8"] { #expect(throws: TrustedProxyError.self) { try TrustedProxies.Range(bad) } }
        // The right-most entry outside the proxies: a client's own X-Forwarded-For entries count for nothing.
        #expect(proxies.clientKey(remote: "10.0.0.1", forwardedFor: "1.1.1.1, 203.0.113.9, 10.0.0.2") == "203.0.113.9")
        #expect(proxies.clientKey(remote: "10.0.0.1", forwardedFor: nil) == "10.0.0.1")
        #expect(proxies.clientKey(remote: "198.51.100.7", forwardedFor: "203.0.113.9") == "198.51.100.7")
        // IPv6 per /64.
        let one = proxies.clientKey(remote: "2001:db8:1:2::5", forwardedFor: nil)
        #expect(one == proxies.clientKey(remote: "2001:db8:1:2:ffff::6", forwardedFor: nil))
        #expect(one != proxies.clientKey(remote: "2001:db8:1:3::5", forwardedFor: nil))
    }

    @Test func theIdentityHeaderIsBelievedFromATrustedProxyOnly() throws {
        let trusted = try SignInFixture.server { app in
            app.signIn.trustedProxies = try Self.proxies("127.0.0.0/8")
            app.signIn.identityHeader = "X-Forwarded-User"
            app.access.permissions.grant(.view, on: "people", to: "editors")
        }
        let asAlice = [("X-Forwarded-User", "alice"), ("Accept", "text/html")]
        #expect(try trusted.get("/whoami", headers: asAlice).text.contains("actor: alice"))
        #expect(try trusted.get("/people", headers: asAlice).status == 200)
        // A name with no account is signed in, without groups.
        #expect(try trusted.get("/whoami", headers: [("X-Forwarded-User", "dave")]).text.contains("actor: dave"))
        #expect(try trusted.get("/people", headers: [("X-Forwarded-User", "dave"), ("Accept", "text/html")]).status == 403)

        let elsewhere = try SignInFixture.server { app in
            app.signIn.trustedProxies = try Self.proxies("10.0.0.0/8")
            app.signIn.identityHeader = "X-Forwarded-User"
        }
        #expect(try elsewhere.get("/whoami", headers: asAlice).text.contains("actor: nobody"))
    }

    @Test func failuresAreCountedPerForwardedClient() throws {
        let server = try SignInFixture.server { app in app.signIn.trustedProxies = try Self.proxies("127.0.0.0/8") }
        var attempts = 0
        func attempt(from client: String) throws -> Int {
            attempts += 1
            // A name each: failures on one name slow its next tries, which this test is not about.
            return try server.post("/-/signin", form: "account=nobody\(attempts)&password=x", headers: [("X-Forwarded-For", "\(client), 127.0.0.1")])
                .status
        }
        for _ in 1...LoginRateLimiter.failuresPerMinute { #expect(try attempt(from: "203.0.113.1") == 401) }
        #expect(try attempt(from: "203.0.113.1") == 429)
        #expect(try attempt(from: "203.0.113.2") == 401)
    }

    @Test func theCookieIsSecureWhenATrustedProxySaysHTTPS() throws {
        let form = "account=bob&password=\(SignInFixture.bobPassword)"
        let trusted = try SignInFixture.server { app in app.signIn.trustedProxies = try Self.proxies("127.0.0.1") }
        let https = try trusted.post("/-/signin", form: form, headers: [("X-Forwarded-Proto", "https")])
        #expect(https.headers["Set-Cookie"]?.contains("; Secure") == true)
        #expect(try trusted.post("/-/signin", form: form).headers["Set-Cookie"]?.contains("Secure") == false)
        let untrusted = try SignInFixture.server { app in app.signIn.trustedProxies = try Self.proxies("10.0.0.0/8") }
        #expect(
            try untrusted.post("/-/signin", form: form, headers: [("X-Forwarded-Proto", "https")]).headers["Set-Cookie"]?.contains("Secure") == false)
        let always = try SignInFixture.server { app in app.signIn.secureCookies = true }
        #expect(try always.post("/-/signin", form: form).headers["Set-Cookie"]?.contains("; Secure") == true)
    }
}
