import Foundation
import HTTPTestSupport
import Testing

@testable import Cellar

/// No password, hash, key, cookie or token reaches a log line or an error page: a whole sign-in
/// session's worth of requests, good and bad, then every line the server logged, scanned.
@Suite struct SecretsInLogsTests {
    @Test func aSuitesLogHoldsNoSecret() throws {
        let server = try SignInFixture.server { app in
            app.access.permissions.grant(.view, on: "people", to: "editors")
        }
        let keys = try SessionKeys(text: SignInFixture.key)
        let token = try BearerToken.make(
            actor: "alice", scopes: [try BearerToken.Scope("view")], expiresAt: Int64(Date().timeIntervalSince1970) + 3600, keys: keys)
        var pages: [String] = []
        let cookie = try server.signIn("alice", SignInFixture.alicePassword)
        for password in ["wrong-\(SignInFixture.alicePassword)", SignInFixture.bobPassword] {
            pages.append(try server.post("/-/signin", form: "account=alice&password=\(password)").text)
            pages.append(try server.post("/-/signin", form: "account=zelda&password=\(password)", headers: [("Accept", "application/json")]).text)
        }
        pages.append(try server.get("/people", headers: [("Cookie", cookie)]).text)
        pages.append(try server.get("/people.json", headers: [("Cookie", cookie + "x")]).text)
        pages.append(try server.get("/people.json", headers: [("Authorization", "Bearer \(token)")]).text)
        pages.append(try server.get("/people.json", headers: [("Authorization", "Bearer \(token)x")]).text)
        for attempt in 0..<12 { pages.append(try server.post("/-/signin", form: "account=u\(attempt)&password=\(SignInFixture.bobPassword)").text) }
        pages.append(try TestHTTPClient.send("POST", "/-/signout", port: server.port, headers: [("Cookie", cookie)], timeout: .seconds(60)).text)

        let cookieValue = String(cookie.dropFirst("cellar_session=".count))
        let hashes = [SignInFixture.aliceHash.description, SignInFixture.bobHash.description]
        let secrets =
            [SignInFixture.alicePassword, SignInFixture.bobPassword, SignInFixture.key, cookieValue, String(cookieValue.suffix(30)), token]
            + hashes + hashes.map { String($0.split(separator: "$").last!) }
        let lines = server.logs.all.map { entry in ([entry.message] + entry.metadata.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
        #expect(lines.contains { $0.contains("signed in") })
        #expect(lines.contains { $0.contains("sign-in failed") })
        #expect(lines.contains { $0.contains("too many failures") })
        for secret in secrets {
            #expect(!lines.contains { $0.contains(secret) }, "a log line holds a secret")
            #expect(!pages.contains { $0.contains(secret) }, "a page holds a secret")
        }
    }
}
