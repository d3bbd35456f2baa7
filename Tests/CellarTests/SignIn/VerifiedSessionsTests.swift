import Foundation
import HTTPTestSupport
import Testing

@testable import Cellar

/// What a signed-in request reads on its way, made cheaper (BENCHMARKS.md, "A signed-in request's
/// cost, again"): the session cookie found in place in the `Cookie` header, remembered sessions
/// hashed by their signature's bytes but still matched byte for byte, and the `Vary` a list sends.
@Suite struct VerifiedSessionsTests {
    static let keys = try! SessionKeys(text: SignInFixture.key)

    @Test func theSessionIsFoundAmongOtherCookiesByItsExactName() {
        #expect(SessionCookie.find(in: "cellar_session=abc.def") == "abc.def")
        #expect(SessionCookie.find(in: "theme=dark; cellar_session=abc.def; lang=fr") == "abc.def")
        #expect(SessionCookie.find(in: "theme=dark;\tcellar_session=abc.def;") == "abc.def")
        // Names that only start or end like it, a value after another cookie's `=`, an empty one.
        #expect(SessionCookie.find(in: "xcellar_session=1; cellar_session2=2; a=cellar_session=3") == nil)
        #expect(SessionCookie.find(in: "cellar_session2=2; cellar_session=real.one") == "real.one")
        #expect(SessionCookie.find(in: "cellar_session=; a=1") == nil)
        #expect(SessionCookie.find(in: "") == nil)
        #expect(SessionCookie.find(in: nil) == nil)
        #expect(SessionCookie.find(in: "caf\u{E9}=1; cellar_session=v.s; \u{1F377}=2") == "v.s")
    }

    @Test func aRememberedSessionIsFoundOnlyByTheSameBytes() throws {
        let account = SignInFixture.accounts["alice"]!
        let now = Int64(Date().timeIntervalSince1970)
        let value = SessionCookie.value(actor: "alice", issuedAt: now, account: account, keys: Self.keys)
        let other = SessionCookie.value(actor: "alice", issuedAt: now - 60, account: account, keys: Self.keys)
        let sessions = VerifiedSessions()
        sessions.remember(Substring(value), .init(actor: "alice", issuedAt: now, passwordHash: account.passwordHash))
        // Found as a slice of a larger header, as a request lends it.
        let header = "theme=dark; cellar_session=\(value); lang=fr"
        #expect(sessions.session(for: try #require(SessionCookie.find(in: header)))?.actor == "alice")
        // The same signature after another payload (the bytes the key is hashed by) is not the same cookie.
        let signature = try #require(value.split(separator: ".").last)
        let forged = try #require(other.split(separator: ".").first) + "." + signature
        #expect(sessions.session(for: Substring(forged)) == nil)
        // Nor one byte changed anywhere, or one byte missing.
        var changed = Array(value.utf8)
        changed[2] = changed[2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(sessions.session(for: Substring(String(decoding: changed, as: UTF8.self))) == nil)
        #expect(sessions.session(for: value.dropFirst()) == nil)
        #expect(sessions.session(for: Substring(other)) == nil)
        #expect(VerifiedSessions.Key(lent: Substring(value)) == VerifiedSessions.Key(stored: Substring(value)))
        #expect(VerifiedSessions.Key(lent: Substring(value)).hashValue == VerifiedSessions.Key(stored: Substring(value)).hashValue)
    }

    @Test func theVaryAddsTheCredentialsToWhatTheResponseSaid() {
        #expect(SignInMiddleware.varyingOnCredentials(nil) == "Cookie, Authorization")
        #expect(SignInMiddleware.varyingOnCredentials("Accept") == "Accept, Cookie, Authorization")
        #expect(SignInMiddleware.varyingOnCredentials("Accept, HX-Request") == "Accept, HX-Request, Cookie, Authorization")
        #expect(SignInMiddleware.varyingOnCredentials("Origin") == "Origin, Cookie, Authorization")
    }

    @Test func aListAnswersEveryActorWithItsVaryAndASignedInOnePrivately() throws {
        let server = try SignInFixture.server()
        let cookie = try server.signIn("alice", SignInFixture.alicePassword)
        for path in ["/listbench", "/listbench.json"] {
            // Twice signed in: verified, then remembered.
            for _ in 0..<2 {
                let signedIn = try server.get(path, headers: [("Cookie", "theme=dark; \(cookie)")])
                #expect(signedIn.status == 200)
                #expect(signedIn.headers["Vary"] == "Accept, HX-Request, Cookie, Authorization", "\(path)")
                #expect(signedIn.headers.values(for: "Vary").count == 1)
                #expect(signedIn.headers["Cache-Control"] == "private, no-cache", "\(path)")
                #expect(signedIn.headers.values(for: "Cache-Control").count == 1)
            }
            let anonymous = try server.get(path)
            #expect(anonymous.headers["Vary"] == "Accept, HX-Request, Cookie, Authorization", "\(path)")
            #expect(anonymous.headers["Cache-Control"] != "private, no-cache")
        }
        #expect(try server.whoami(cookie: "theme=dark; \(cookie)") == "alice")
    }
}
