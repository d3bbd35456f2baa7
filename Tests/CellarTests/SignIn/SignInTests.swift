import Cellar
import Foundation
import HTTPTestSupport
import Testing

@testable import Cellar

/// `/-/signin` and `/-/signout` over sockets, and the session cookie they set.
@Suite struct SignInTests {
    @Test func signingInSetsASessionAndSigningOutClearsIt() throws {
        let server = try SignInFixture.server()
        let form = try server.get("/-/signin?next=/people")
        #expect(form.status == 200)
        #expect(form.text.contains("<label class=\"field-label\" for=\"field-account\">Account</label>"))
        #expect(form.text.contains("name=\"next\" value=\"/people\""))
        #expect(form.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)

        let response = try server.post("/-/signin", form: "account=alice&password=\(SignInFixture.alicePassword)&next=%2Fpeople%3Fq%3Dx")
        #expect(response.status == 303)
        #expect(response.headers["Location"] == "/people?q=x")
        let setCookie = try #require(response.headers["Set-Cookie"])
        #expect(setCookie.hasPrefix("cellar_session="))
        for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=604800"] { #expect(setCookie.contains(attribute), "\(attribute)") }
        #expect(!setCookie.contains("Secure"))
        let cookie = String(setCookie.split(separator: ";")[0])

        #expect(try server.whoami(cookie: cookie) == "alice")
        #expect(try server.whoami(cookie: nil) == "nobody")
        let page = try server.get("/people", headers: [("Cookie", cookie)])
        #expect(page.headers["Cache-Control"] == "private, no-cache")
        #expect(page.headers["Vary"]?.contains("Cookie") == true)
        #expect(page.text.contains("class=\"session\""))
        #expect(page.text.contains("alice"))
        #expect(page.text.contains("action=\"/-/signout\""))
        let anonymous = try server.get("/people")
        #expect(anonymous.text.contains("<a href=\"/-/signin\">Sign in</a>"))
        #expect(!page.text.contains("<a href=\"/-/signin\">"))
        #expect(anonymous.headers["Vary"]?.contains("Cookie") == true)
        #expect(anonymous.headers["Cache-Control"] != "private, no-cache")

        let signOut = try TestHTTPClient.send("POST", "/-/signout", port: server.port, headers: [("Cookie", cookie)], timeout: .seconds(60))
        #expect(signOut.status == 303)
        #expect(signOut.headers["Location"] == "/")
        #expect(signOut.headers["Set-Cookie"]?.contains("Max-Age=0") == true)
        #expect(signOut.headers["Set-Cookie"]?.hasPrefix("cellar_session=;") == true)
    }

    @Test func aFormPageNamesItsSignedInActorAsEveryPageDoes() throws {
        let server = try SignInFixture.server()
        let alice = try server.signIn("alice", SignInFixture.alicePassword)
        let form = try server.get("/tasting-notes/new", headers: [("Cookie", alice)])
        #expect(form.status == 200)
        #expect(form.text.contains("Signed in as <strong>alice</strong>"))
        #expect(!form.text.contains("<a href=\"/-/signin\">Sign in</a>"))
        // The form again with its mistakes (422) is in the same frame.
        let refused = try server.post("/tasting-notes/new", form: "wine=", headers: [("Cookie", alice)])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Signed in as <strong>alice</strong>"))
        #expect(try server.get("/tasting-notes/new").text.contains("<a href=\"/-/signin\">Sign in</a>"))
    }

    @Test func aSignedInPagesValidatorIsItsActorsOwn() throws {
        let server = try SignInFixture.server()
        let alice = try server.signIn("alice", SignInFixture.alicePassword)
        let bob = try server.signIn("bob", SignInFixture.bobPassword)
        var tags: [String] = []
        for cookie in [nil, alice, bob] {
            for target in ["/people", "/catalog"] {
                let response = try server.get(target, headers: cookie.map { [("Cookie", $0)] } ?? [])
                tags.append(try #require(response.headers["ETag"], "\(target)"))
            }
        }
        #expect(Set(tags).count == tags.count)
        // The same actor's page again: the same validator, and a 304 for it.
        let again = try server.get("/people", headers: [("Cookie", alice)])
        #expect(again.headers["ETag"] == tags[2])
        #expect(try server.get("/people", headers: [("Cookie", alice), ("If-None-Match", tags[2])]).status == 304)
        #expect(try server.get("/people", headers: [("Cookie", bob), ("If-None-Match", tags[2])]).status == 200)
    }

    @Test func anUnknownAccountAndAWrongPasswordGetTheSameAnswer() throws {
        let server = try SignInFixture.server()
        let wrong = try server.post("/-/signin", form: "account=alice&password=nope")
        let unknown = try server.post("/-/signin", form: "account=zelda&password=nope")
        #expect(wrong.status == 401)
        #expect(unknown.status == wrong.status)
        #expect(wrong.headers["Set-Cookie"] == nil && unknown.headers["Set-Cookie"] == nil)
        #expect(wrong.text.contains(SignInPage.failureMessage))
        // The form keeps what was typed in the account field; past that, the two pages are the same.
        #expect(
            wrong.text.replacingOccurrences(of: "value=\"alice\"", with: "") == unknown.text.replacingOccurrences(of: "value=\"zelda\"", with: ""))
        #expect(Set(wrong.headerFields.map { $0.name.lowercased() }) == Set(unknown.headerFields.map { $0.name.lowercased() }))
        let json = try server.post("/-/signin", form: "account=zelda&password=nope", headers: [("Accept", "application/json")])
        #expect(json.status == 401)
        #expect(json.text.contains(SignInPage.failureMessage))
    }

    /// The form is made of the forms' field cells, in a page the forms' stylesheet applies to,
    /// and a failure is said as a form's mistakes are: a summary linking to the field, the
    /// message on it, `aria-invalid` and `aria-describedby`; the password is never written back.
    @Test func theFormIsFieldCellsAndAFailureIsSaidTheFormsWay() throws {
        let server = try SignInFixture.server()
        let form = try server.get("/-/signin").text
        #expect(form.contains("<main id=\"main\" class=\"page-view form-view\""))
        #expect(form.contains("<form class=\"form\" method=\"post\" action=\"/-/signin\" novalidate>"))
        #expect(form.contains(" id=\"row-account\""))
        #expect(form.contains("id=\"field-account\" name=\"account\" required"))
        #expect(form.contains("autocomplete=\"username\""))
        #expect(form.contains("type=\"password\" id=\"field-password\" name=\"password\" required"))
        #expect(form.contains("autocomplete=\"current-password\""))
        #expect(form.contains("<button class=\"button\" type=\"submit\">Sign in</button>"))
        #expect(!form.contains("error-summary"))
        #expect(!form.contains("aria-invalid"))
        // Outside <main>, the session's link is in a landmark of its own, as axe-core wants; not on the sign-in page itself.
        #expect(!form.contains("class=\"session\""))
        #expect(try server.get("/people").text.contains("<nav class=\"session\" aria-label=\"Account\"><a href=\"/-/signin\">Sign in</a></nav>"))

        let failed = try server.post("/-/signin", form: "account=%3Cb%3Ealice&password=\(SignInFixture.alicePassword)x&next=%2Fpeople")
        #expect(failed.status == 401)
        let page = failed.text
        #expect(page.contains("<title>Error: Sign in"))
        #expect(page.contains("<h1>Sign in</h1>"))
        #expect(page.contains("<div class=\"error-summary\" role=\"alert\""))
        #expect(page.contains("<a href=\"#field-password\">\(SignInPage.failureMessage)</a>"))
        #expect(page.contains("<p class=\"field-error\" id=\"field-password-error\">"))
        #expect(page.contains("id=\"field-password\" name=\"password\" required aria-invalid=\"true\" aria-describedby=\"field-password-error\""))
        #expect(page.contains("value=\"&lt;b&gt;alice\""))
        #expect(page.contains("name=\"next\" value=\"/people\""))
        #expect(!page.contains(SignInFixture.alicePassword))
    }

    @Test func tenFailuresAMinuteFromOneAddressThen429() throws {
        let server = try SignInFixture.server()
        for attempt in 1...LoginRateLimiter.failuresPerMinute {
            #expect(try server.post("/-/signin", form: "account=nobody\(attempt)&password=x").status == 401)
        }
        let refused = try server.post("/-/signin", form: "account=alice&password=\(SignInFixture.alicePassword)")
        #expect(refused.status == 429)
        let retryAfter = try #require(refused.headers["Retry-After"].flatMap { Int($0) })
        #expect((1...60).contains(retryAfter))
        #expect(refused.headers["Set-Cookie"] == nil)
    }

    @Test func failuresSlowAnAccountWithoutLockingItOut() {
        let limiter = LoginRateLimiter(maximumHashesInFlight: 1)
        let start = ContinuousClock.now
        #expect(limiter.delay(account: "alice", now: start) == .zero)
        for _ in 1...3 { limiter.recordFailure(address: "10.0.0.1", account: "alice", now: start) }
        #expect(limiter.delay(account: "alice", now: start) == .zero)
        limiter.recordFailure(address: "10.0.0.2", account: "alice", now: start)
        #expect(limiter.delay(account: "alice", now: start) == .milliseconds(250))
        for _ in 1...20 { limiter.recordFailure(address: "10.0.0.3", account: "alice", now: start) }
        #expect(limiter.delay(account: "alice", now: start) == LoginRateLimiter.maximumDelay)
        // Fifteen quiet minutes, or a success, forget the failures.
        #expect(limiter.delay(account: "alice", now: start + .seconds(901)) == .zero)
        for _ in 1...5 { limiter.recordFailure(address: "10.0.0.4", account: "bob", now: start) }
        limiter.recordSuccess(account: "bob")
        #expect(limiter.delay(account: "bob", now: start) == .zero)
    }

    @Test func anUnknownNameIsSlowedAsAnAccountIs() throws {
        let server = try SignInFixture.server()
        for _ in 1...4 { #expect(try server.post("/-/signin", form: "account=zelda&password=x").status == 401) }
        let limiter = try #require(server.app.accessControl).limiter
        #expect(limiter.delay(account: "zelda") == .milliseconds(250))
        // The names remembered are bounded too.
        let start = ContinuousClock.now
        for index in 0..<(LoginRateLimiter.maximumAddresses + 10) { limiter.recordFailure(address: "192.0.2.9", account: "n\(index)", now: start) }
        #expect(limiter.accountCount <= LoginRateLimiter.maximumAddresses)
    }

    @Test func theLimiterForgetsAddressesBeyondItsBound() {
        let limiter = LoginRateLimiter(maximumHashesInFlight: 1)
        let start = ContinuousClock.now
        for index in 0..<(LoginRateLimiter.maximumAddresses + 500) {
            limiter.recordFailure(address: "10.\(index / 65536).\(index / 256 % 256).\(index % 256)", account: nil, now: start)
        }
        #expect(limiter.addressCount <= LoginRateLimiter.maximumAddresses)
        // A minute on, an address's failures no longer count.
        for _ in 1...10 { limiter.recordFailure(address: "192.0.2.1", account: nil, now: start) }
        #expect(limiter.retryAfter(address: "192.0.2.1", now: start) != nil)
        #expect(limiter.retryAfter(address: "192.0.2.1", now: start + .seconds(61)) == nil)
    }

    @Test func hashesBeyondOnePerCoreAreRefused() {
        let limiter = LoginRateLimiter(maximumHashesInFlight: 1)
        let inner = limiter.withHashSlot { limiter.withHashSlot { true } }
        #expect(inner == .some(nil))
        #expect(limiter.withHashSlot { true } == true)
    }

    @Test(arguments: [
        ("/people", "/people"), ("/people?q=a%20b&limit=5", "/people?q=a+b&limit=5"), ("//evil.example", "/"), ("/\\evil.example", "/"),
        ("\\/evil.example", "/"), ("https://evil.example/", "/"), ("evil.example", "/"), ("/%2Fevil.example", "/"), ("/%5Cevil.example", "/"),
        ("/a\\b", "/"), ("/a\tb", "/"), ("/a\nb", "/"), ("/a\u{7F}b", "/"), ("/a\u{85}b", "/"), ("javascript:alert(1)", "/"), ("", "/"),
        ("/caf\u{E9}", "/caf%C3%A9"), ("/a b\"<", "/a%20b%22%3C"), ("/people#top", "/people"), ("/%252F", "/%252F"),
    ])
    func nextIsAPathOfThisSiteOrTheHomePage(next: String, expected: String) {
        #expect(NextPath.safe(next) == expected)
    }

    @Test func aHostileNextOverSocketsGoesHome() throws {
        let server = try SignInFixture.server()
        for hostile in ["%2F%2Fevil.example", "%2F%5Cevil.example", "https%3A%2F%2Fevil.example", "%2F%09%2Fevil.example"] {
            let response = try server.post("/-/signin?next=\(hostile)", form: "account=bob&password=\(SignInFixture.bobPassword)")
            #expect(response.status == 303)
            #expect(response.headers["Location"] == "/", "\(hostile)")
        }
    }
}
