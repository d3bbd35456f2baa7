import Foundation
import HTTPTestSupport
import Testing

@testable import Cellar

/// `Authorization: Bearer` over sockets: scope, expiry, tampering, revocation, the cookie it
/// overrides, and the cross-origin exemption it earns only when it verifies.
@Suite struct BearerTokenTests {
    static let keys = try! SessionKeys(text: SignInFixture.key)
    static var now: Int64 { Int64(Date().timeIntervalSince1970) }

    static func token(_ actor: String, _ scopes: [String], expiresAt: Int64 = now + 3600, keys: SessionKeys = keys) throws -> String {
        try BearerToken.make(actor: actor, scopes: try scopes.map { try BearerToken.Scope($0) }, expiresAt: expiresAt, keys: keys)
    }

    static func server(revoked: Set<String> = []) throws -> TestServer {
        try SignInFixture.server { app in
            app.access.permissions.grant(.view, on: Permissions.everyList, to: Permissions.signedIn)
            app.access.permissions.grant(.view, on: "/reports", to: "editors")
            app.access.permissions.grant(.update, on: "notes", to: Permissions.signedIn)
            app.access.revokedTokens = revoked
            app.page("/notes/update", title: "Notes", .post) { request, page in
                try app.accessControl?.require(request, .update, on: "/notes")
                page.html.text("updated by \(request.actor ?? "nobody")")
                return .ok
            }
        }
    }

    static func get(_ server: TestServer, _ target: String, token: String, cookie: String? = nil) throws -> TestHTTPResponse {
        try server.get(target, headers: [("Authorization", "Bearer \(token)")] + (cookie.map { [("Cookie", $0)] } ?? []))
    }

    @Test func aTokenGrantsWhatItNamesAndItsActorMayDo() throws {
        let server = try Self.server()
        let people = try Self.token("alice", ["view:/people"])
        #expect(try Self.get(server, "/people.json", token: people).status == 200)
        #expect(try Self.get(server, "/people/1.json", token: people).status == 200)
        #expect(try Self.get(server, "/catalog.json", token: people).status == 403)
        let anyList = try Self.token("bob", ["view"])
        #expect(try Self.get(server, "/catalog.json", token: anyList).status == 200)
        // bob may not view /reports (editors only), whatever his token says.
        #expect(try Self.get(server, "/reports.json", token: anyList).status == 403)
        #expect(try Self.get(server, "/whoami", token: anyList).text.contains("actor: bob"))
        // update on notes, checked by the app's page: named, or not.
        let update = try Self.token("bob", ["update:notes"])
        #expect(try server.post("/notes/update", form: "", headers: [("Authorization", "Bearer \(update)")]).status == 200)
        #expect(try server.post("/notes/update", form: "", headers: [("Authorization", "Bearer \(anyList)")]).status == 403)
    }

    @Test func aBadExpiredRevokedOrOrphanTokenIs401() throws {
        let good = try Self.token("alice", ["view"])
        let id = try #require(BearerToken.verified(good, keys: Self.keys, now: Self.now)?.id)
        let server = try Self.server(revoked: [id])
        let parts = good.split(separator: ".")
        let cookie = try server.signIn("alice", SignInFixture.alicePassword)
        for bad in [
            good,  // revoked
            try Self.token("alice", ["view"], expiresAt: Self.now - 60),
            try Self.token("alice", ["view"], keys: try SessionKeys(text: SignInFixture.otherKey)),
            try Self.token("carol", ["view"]),
            "ct1.\(parts[1]).\(parts[1])", "ct1.\(Base64URL.encoded(Array("x\nbob\n99999999999\nview".utf8))).\(parts[2])",
            String(cookie.dropFirst("cellar_session=".count)), "garbage",
        ] {
            let response = try Self.get(server, "/people.json", token: bad)
            #expect(response.status == 401, "\(bad)")
            #expect(response.headers["WWW-Authenticate"] == "Bearer error=\"invalid_token\"")
        }
        // A bad token is refused even where anyone may look.
        #expect(try Self.get(server, "/whoami", token: "garbage").status == 401)
    }

    /// The middleware verifies a token once and keeps it on the request; a later check in the same
    /// request (a write's permission) uses it, but still sees a revocation made in between.
    @Test func aTokenVerifiedOnceIsStillCheckedAgainstTheConfigurationNow() throws {
        let server = try SignInFixture.server { app in
            app.access.permissions.grant(.view, on: Permissions.everyList, to: Permissions.signedIn)
            app.access.permissions.grant(.update, on: "notes", to: Permissions.signedIn)
            app.page("/notes/revoke-then-update", title: "Notes", .post) { request, page in
                let control = try #require(app.accessControl)
                let carried = try #require(request.verifiedCredentials as? VerifiedBearer)
                #expect(control.permits(request, .update, on: "/notes"))
                var configuration = control.current
                configuration.revokedTokens.insert(carried.token.id)
                control.replace(with: configuration)
                try control.require(request, .update, on: "/notes")
                return .ok
            }
        }
        let update = try Self.token("bob", ["update:notes"])
        let response = try server.post("/notes/revoke-then-update", form: "", headers: [("Authorization", "Bearer \(update)")])
        #expect(response.status == 403)
        // And from then on the token is refused at the door.
        #expect(try Self.get(server, "/people.json", token: update).status == 401)
    }

    /// As above, for an account removed and a grant taken away between the middleware and the check.
    @Test(arguments: ["account", "grant"]) func aCarriedTokenSeesItsAccountOrGrantGoneInBetween(_ removed: String) throws {
        let server = try SignInFixture.server { app in
            app.access.permissions.grant(.view, on: Permissions.everyList, to: Permissions.signedIn)
            app.access.permissions.grant(.update, on: "notes", to: Permissions.signedIn)
            app.page("/notes/change-then-update", title: "Notes", .post) { request, page in
                let control = try #require(app.accessControl)
                let before = control.permits(request, .update, on: "/notes")
                var configuration = control.current
                if removed == "account" {
                    configuration.accounts["bob"] = nil
                } else {
                    configuration.permissions.grants["notes"] = [.update: ["alice"]]
                }
                control.replace(with: configuration)
                page.html.text("before: \(before), after: \(control.permits(request, .update, on: "/notes"))")
                return .ok
            }
        }
        let update = try Self.token("bob", ["update:notes"])
        let response = try server.post("/notes/change-then-update", form: "", headers: [("Authorization", "Bearer \(update)")])
        #expect(response.status == 200)
        #expect(response.text.contains("before: true, after: false"))
    }

    @Test func theHeaderIsReadInAnyCaseWithAnySpaces() {
        #expect(BearerToken.credentials(in: "Bearer abc") == "abc")
        #expect(BearerToken.credentials(in: "bearer abc") == "abc")
        #expect(BearerToken.credentials(in: "BEARER   abc") == "abc")
        #expect(BearerToken.credentials(in: "bEaReR é") == "é")
        for notBearer in [nil, "Bearer ", "Bearer", "Bearerabc", "Bearer\tabc", "Basic abc", "Bearer\u{0}abc", "Bearér abc", ""] {
            #expect(BearerToken.credentials(in: notBearer) == nil, "\(String(describing: notBearer))")
        }
    }

    @Test func aTokenOverridesTheCookieAndVaries() throws {
        let server = try Self.server()
        let alice = try server.signIn("alice", SignInFixture.alicePassword)
        let bob = try Self.token("bob", ["view"])
        let response = try Self.get(server, "/whoami", token: bob, cookie: alice)
        #expect(response.text.contains("actor: bob"))
        #expect(response.headers["Vary"]?.contains("Authorization") == true)
        #expect(response.headers["Cache-Control"] == "private, no-cache")
    }

    @Test func onlyAVerifiedTokenIsExemptFromCrossOriginProtection() throws {
        let server = try Self.server()
        let token = try Self.token("bob", ["update:notes"])
        let crossSite = [("Sec-Fetch-Site", "cross-site")]
        #expect(try server.post("/notes/update", form: "", headers: crossSite + [("Authorization", "Bearer \(token)")]).status == 200)
        #expect(try server.post("/notes/update", form: "", headers: crossSite + [("Authorization", "Bearer garbage")]).status == 403)
        let cookie = try server.signIn("bob", SignInFixture.bobPassword)
        #expect(try server.post("/notes/update", form: "", headers: crossSite + [("Cookie", cookie)]).status == 403)
    }

    @Test func tokenCreatePrintsATokenTheServerAccepts() throws {
        let (status, output, error) = try AccountCommandTests.run(
            ["token", "create", "--actor", "alice", "--allow", "view", "--allow", "update:/notes", "--expires", "1h"], input: "",
            environment: ["CELLAR_SECRET": SignInFixture.key])
        #expect(status == 0, "\(error)")
        let token = try #require(BearerToken.verified(output.trimmingCharacters(in: .whitespacesAndNewlines), keys: Self.keys, now: Self.now))
        #expect(token.actor == "alice")
        #expect(token.scopes.map(\.description) == ["view", "update:/notes"])
        #expect((Self.now + 3000...Self.now + 3700).contains(token.expiresAt))
        #expect(error.contains("token id \(token.id)"))
        let refused = try AccountCommandTests.run(["token", "create", "--actor", "alice", "--allow", "edit"], input: "")
        #expect(refused.status == 64)
    }
}
