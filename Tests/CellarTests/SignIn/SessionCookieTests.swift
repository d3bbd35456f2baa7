import Cellar
import Foundation
import HTTPTestSupport
import Testing

@testable import Cellar

/// A session cookie that does not verify is simply signed out: no error, no page of its own.
@Suite struct SessionCookieTests {
    static let keys = try! SessionKeys(text: SignInFixture.key)

    @Test func aTamperedCookieIsSignedOut() throws {
        let server = try SignInFixture.server()
        let cookie = try server.signIn("alice", SignInFixture.alicePassword)
        #expect(try server.whoami(cookie: cookie) == "alice")
        let value = cookie.dropFirst("cellar_session=".count)
        let parts = value.split(separator: ".")
        // bob's name in alice's signed payload; a signature flipped; the parts swapped; garbage.
        let forgedPayload = Base64URL.encoded(Array("bob\n\(Int64(Date().timeIntervalSince1970))\nAAAAAAAAAAAAAAAAAAAAAA".utf8))
        var flipped = Array(parts[1])
        flipped[3] = flipped[3] == "A" ? "B" : "A"
        for tampered in [
            "cellar_session=\(forgedPayload).\(parts[1])", "cellar_session=\(parts[0]).\(String(flipped))", "cellar_session=\(parts[1]).\(parts[0])",
            "cellar_session=\(parts[0])", "cellar_session=%%%.***", "cellar_session=",
        ] {
            let response = try server.get("/whoami", headers: [("Cookie", tampered)])
            #expect(response.status == 200, "\(tampered)")
            #expect(try server.whoami(cookie: tampered) == "nobody", "\(tampered)")
        }
        // Among other cookies, the session is found.
        #expect(try server.whoami(cookie: "theme=dark; \(cookie); lang=fr") == "alice")
    }

    @Test func anExpiredCookieIsSignedOut() throws {
        let server = try SignInFixture.server()
        let account = SignInFixture.accounts["alice"]!
        let now = Int64(Date().timeIntervalSince1970)
        let week = Int64(7 * 24 * 3600)
        let fresh = SessionCookie.value(actor: "alice", issuedAt: now - week + 3600, account: account, keys: Self.keys)
        let expired = SessionCookie.value(actor: "alice", issuedAt: now - week - 3600, account: account, keys: Self.keys)
        let fromTheFuture = SessionCookie.value(actor: "alice", issuedAt: now + 86_400, account: account, keys: Self.keys)
        #expect(try server.whoami(cookie: "cellar_session=\(fresh)") == "alice")
        #expect(try server.whoami(cookie: "cellar_session=\(expired)") == "nobody")
        #expect(try server.whoami(cookie: "cellar_session=\(fromTheFuture)") == "nobody")
    }

    @Test func anotherKeysCookieIsSignedOutAndAPreviousKeyStillCounts() throws {
        let account = SignInFixture.accounts["alice"]!
        let now = Int64(Date().timeIntervalSince1970)
        let other = try SessionKeys(text: SignInFixture.otherKey)
        let otherKeys = SessionCookie.value(actor: "alice", issuedAt: now, account: account, keys: other)
        let server = try SignInFixture.server()
        #expect(try server.whoami(cookie: "cellar_session=\(otherKeys)") == "nobody")
        // After a rotation (the new key first, the old one after), the old key's sessions hold.
        let rotated = try SignInFixture.server { app in app.signIn.keys = try SessionKeys(text: SignInFixture.key + "\n" + SignInFixture.otherKey) }
        #expect(try rotated.whoami(cookie: "cellar_session=\(otherKeys)") == "alice")
        let cookie = try rotated.signIn("alice", SignInFixture.alicePassword)
        #expect(try server.whoami(cookie: cookie) == "alice")
    }

    @Test func aChangedPasswordOrARemovedAccountSignsOut() throws {
        let server = try SignInFixture.server()
        let alice = try server.signIn("alice", SignInFixture.alicePassword)
        let bob = try server.signIn("bob", SignInFixture.bobPassword)
        // Both seen once, so both are remembered as verified: a change must end them all the same.
        #expect(try server.whoami(cookie: alice) == "alice")
        #expect(try server.whoami(cookie: bob) == "bob")
        let control = try #require(server.app.accessControl)
        var changed = control.current
        changed.accounts["alice"]?.passwordHash = try PasswordHash.make(password: "new-password-1", logCost: 10)
        changed.accounts["bob"] = nil
        control.replace(with: changed)
        #expect(try server.whoami(cookie: alice) == "nobody")
        #expect(try server.whoami(cookie: bob) == "nobody")
        #expect(try server.whoami(cookie: try server.signIn("alice", "new-password-1")) == "alice")
    }

    @Test func probesAndAssetsNeverReadTheSession() {
        for path in ["/healthz", "/readyz", "/metrics", "/static/app.css"] { #expect(SignInMiddleware.skipsSession(path), "\(path)") }
        for path in ["/", "/people", "/-/signin", "/static"] { #expect(!SignInMiddleware.skipsSession(path), "\(path)") }
    }

    @Test func withoutAKeyOneIsMadeAndTheLogSaysSessionsEndWithTheProcess() throws {
        let server = try TestServer { app in app.access.accounts = SignInFixture.accounts }
        let cookie = try server.signIn("alice", SignInFixture.alicePassword)
        #expect(!cookie.isEmpty)
        #expect(server.logs.all.contains { $0.level == .warning && $0.message.contains("sessions will not survive a restart") })
    }
}
