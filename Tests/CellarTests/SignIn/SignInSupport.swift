import Cellar
import HTTPTestSupport
import Showcase
import Testing

@testable import Cellar

/// What the sign-in suites share: accounts with cheap hashes (scrypt at N = 2^10, the format's
/// own cost), a key, and an app with a page that says who it sees.
enum SignInFixture {
    static let alicePassword = "wonderland-7"
    static let bobPassword = "builder-of-things"
    static let key = "test-session-key-0123456789abcdefghijklmnop"
    static let otherKey = "another-session-key-zyxwvutsrqponmlkjihgfedcba"
    static let aliceHash = try! PasswordHash.make(password: alicePassword, logCost: 10)
    static let bobHash = try! PasswordHash.make(password: bobPassword, logCost: 10)

    static var accounts: [String: Account] {
        ["alice": Account(passwordHash: aliceHash, groups: ["editors"]), "bob": Account(passwordHash: bobHash)]
    }

    /// An app with the showcase's small lists, alice and bob, and `/whoami` (the actor, or `nobody`).
    static func server(heartbeat: Int = 15, _ configure: (App) throws -> Void = { _ in }) throws -> TestServer {
        try TestServer(heartbeat: heartbeat) { app in
            try Showcase.install(in: app, peopleCount: 10, listbenchCount: 10, bigCount: 10)
            app.access.accounts = accounts
            app.signIn.keys = try SessionKeys(text: key)
            app.page("/whoami", title: "Who am I") { request, page in
                page.html.text("actor: \(request.actor ?? "nobody")")
                return .ok
            }
            try configure(app)
        }
    }
}

extension TestServer {
    /// A form POST to `target` (no browser headers: not a cross-site request).
    func post(_ target: String, form: String, headers: [(String, String)] = []) throws -> TestHTTPResponse {
        try TestHTTPClient.send(
            "POST", target, port: port, headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers, body: Array(form.utf8),
            timeout: .seconds(60))
    }

    /// Signs in and returns the `Cookie` header's value for the session.
    func signIn(_ account: String, _ password: String) throws -> String {
        let response = try post("/-/signin", form: "account=\(account)&password=\(password)")
        #expect(response.status == 303, "\(response.status) \(response.text)")
        let setCookie = try #require(response.headers["Set-Cookie"])
        return String(setCookie.split(separator: ";")[0])
    }

    /// Who `/whoami` says the request acts for.
    func whoami(cookie: String?) throws -> String {
        let text = try get("/whoami", headers: cookie.map { [("Cookie", $0)] } ?? []).text
        guard let range = text.range(of: "actor: ") else { return "?" }
        return String(text[range.upperBound...].prefix { $0 != "<" && $0 != "\n" })
    }
}
