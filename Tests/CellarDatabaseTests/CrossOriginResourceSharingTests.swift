import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// `--cors`: the JSON API readable from other sites — its answers and refusals carry
/// `Access-Control-Allow-Origin: *`, preflights are answered without sign-in — while a write
/// from another site still needs a bearer token, and cookies never count.
@Suite struct CrossOriginResourceSharingTests {
    static let elsewhere = "https://elsewhere.example"

    static func serve(cors: Bool = true) throws -> DatabaseWriteTestServer {
        try DatabaseWriteTestServer(prepare: { app in
            if cors { app.crossOriginResourceSharing = CrossOriginResourceSharing() }
        })
    }

    /// The headers every CORS answer carries, and never the one that would let cookies count.
    static func expectCORSHeaders(_ response: TestHTTPResponse, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.headers["Access-Control-Allow-Origin"] == "*", "\(what)", sourceLocation: sourceLocation)
        #expect(
            response.headers["Access-Control-Allow-Headers"] == "Authorization, Content-Type, If-Match", "\(what)", sourceLocation: sourceLocation)
        #expect(response.headers["Access-Control-Allow-Methods"] == "GET, POST, HEAD, OPTIONS", "\(what)", sourceLocation: sourceLocation)
        #expect(response.headers["Access-Control-Expose-Headers"] == "Link, ETag", "\(what)", sourceLocation: sourceLocation)
        #expect(response.headers["Access-Control-Max-Age"] == "3600", "\(what)", sourceLocation: sourceLocation)
        #expect(response.headers["Access-Control-Allow-Credentials"] == nil, "\(what)", sourceLocation: sourceLocation)
    }

    static func fromElsewhere(_ extra: [(String, String)] = []) -> [(String, String)] {
        [("Origin", elsewhere), ("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "cors")] + extra
    }

    @Test func jsonAnswersCarryTheHeadersAndPagesDoNot() throws {
        let served = try Self.serve()
        let sql = "SELECT title FROM books".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        for target in ["/books.json", "/books/1.json", "/-/query.json?sql=" + sql, "/books/-/schema.json", "/books.json?nope=1"] {
            let answer = try served.get(target, headers: Self.fromElsewhere())
            Self.expectCORSHeaders(answer, target)
        }
        // A list asked for JSON by Accept; a refusal as JSON, readable by the script that caused it.
        Self.expectCORSHeaders(try served.get("/books", headers: Self.fromElsewhere([("Accept", "application/json")])), "Accept: JSON")
        let missing = try served.get("/books/999.json", headers: Self.fromElsewhere())
        #expect(missing.status == 404)
        Self.expectCORSHeaders(missing, "a 404 as JSON")
        // The row's version, for If-Match, is exposed.
        #expect(try served.get("/books/1.json").headers["ETag"] != nil)
        for target in ["/books", "/books/1", "/", "/-/signin"] {
            let page = try served.get(target, headers: Self.fromElsewhere())
            #expect(page.headers["Access-Control-Allow-Origin"] == nil, "\(target) is a page")
        }
    }

    @Test func offByDefault() throws {
        let served = try Self.serve(cors: false)
        let answer = try served.get("/books.json", headers: Self.fromElsewhere())
        #expect(answer.status == 200)
        #expect(answer.headers["Access-Control-Allow-Origin"] == nil)
        let preflight = try TestHTTPClient.send(
            "OPTIONS", "/books/-/insert", port: served.server.port,
            headers: Self.fromElsewhere([("Access-Control-Request-Method", "POST")]), timeout: .seconds(60))
        #expect(preflight.headers["Access-Control-Allow-Origin"] == nil)
        #expect(preflight.headers["Access-Control-Allow-Methods"] == nil)
    }

    @Test func aPreflightIsAnsweredWithoutSignIn() throws {
        let served = try Self.serve()
        for target in ["/books/-/insert", "/books/1/-/update", "/books/1/-/delete", "/books.json", "/-/query.json"] {
            let preflight = try TestHTTPClient.send(
                "OPTIONS", target, port: served.server.port,
                headers: Self.fromElsewhere([
                    ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "authorization, content-type, if-match"),
                ]), timeout: .seconds(60))
            #expect(preflight.status == 204, "\(target): \(preflight.status) \(preflight.text.prefix(200))")
            Self.expectCORSHeaders(preflight, "preflight of \(target)")
            #expect(preflight.body.isEmpty)
        }
        // An OPTIONS that is not a preflight goes on to the route as before: a page's gets no CORS headers.
        let plain = try TestHTTPClient.send("OPTIONS", "/books", port: served.server.port, timeout: .seconds(60))
        #expect(plain.headers["Access-Control-Allow-Origin"] == nil)
    }

    @Test func aWriteFromAnotherSiteNeedsABearerTokenNotACookie() throws {
        let served = try Self.serve()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let before = try served.rows("SELECT count(*) FROM books")
        // Alice's cookie, from a page elsewhere: a forged request, refused, and said so readably.
        let forged = try served.post(
            "/books/-/insert", #"{"row": {"title": "Forged"}}"#, token: nil, headers: Self.fromElsewhere([("Cookie", alice)]))
        #expect(forged.status == 403, "\(forged.text)")
        #expect(forged.text.contains("another site"))
        Self.expectCORSHeaders(forged, "a forged write's refusal")
        let anonymous = try served.post("/books/-/insert", #"{"row": {"title": "Forged"}}"#, token: nil, headers: Self.fromElsewhere())
        #expect(anonymous.status == 403)
        #expect(try served.rows("SELECT count(*) FROM books") == before)
        // A bearer token is a script's credential: the write goes through, its answer readable.
        let written = try served.post("/books/-/insert", #"{"row": {"title": "From elsewhere"}, "return": true}"#, headers: Self.fromElsewhere())
        #expect(written.status == 201, "\(written.text)")
        Self.expectCORSHeaders(written, "a token's write")
        #expect(try served.rows("SELECT count(*) FROM books WHERE title = 'From elsewhere'") == [[.integer(1)]])
        // A token that may only view is refused as it is from anywhere, readably.
        let viewOnly = try served.post("/books/-/insert", #"{"row": {"title": "No"}}"#, token: served.viewToken, headers: Self.fromElsewhere())
        #expect(viewOnly.status == 403, "\(viewOnly.text)")
        Self.expectCORSHeaders(viewOnly, "a view token's refused write")
        // A tampered token is not a credential: the request is a cross-site one, refused.
        let tampered = try served.post("/books/-/insert", #"{"row": {"title": "No"}}"#, token: served.token + "x", headers: Self.fromElsewhere())
        #expect(tampered.status == 403 || tampered.status == 401)
        Self.expectCORSHeaders(tampered, "a tampered token's refusal")
        #expect(try served.rows("SELECT count(*) FROM books WHERE title = 'No'") == [[.integer(0)]])
        // An update with If-Match from elsewhere: the version a script read from the exposed ETag.
        let tag = try #require(try served.get("/books/1.json").headers["ETag"])
        let updated = try served.post(
            "/books/1/-/update", #"{"update": {"year": 1966}}"#, headers: Self.fromElsewhere([("If-Match", tag)]))
        #expect(updated.status == 200, "\(updated.text)")
        Self.expectCORSHeaders(updated, "an update")
        let stale = try served.post("/books/1/-/update", #"{"update": {"year": 1967}}"#, headers: Self.fromElsewhere([("If-Match", tag)]))
        #expect(stale.status == 412)
        Self.expectCORSHeaders(stale, "a stale update's refusal")
        #expect(try served.rows("SELECT year FROM books WHERE id = 1") == [[.integer(1966)]])
    }

    @Test func theFlagAndTheVariableTurnItOn() throws {
        let database = try TemporaryDatabase("CREATE TABLE items(id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO items VALUES (1, 2);")
        for (arguments, environment, on) in [([String](), [String: String](), false), (["--cors"], [:], true), ([], ["CELLAR_CORS": "1"], true)] {
            let served = try DatabaseWriteCrashTests.ServedFile(database, arguments: arguments, environment: environment)
            let answer = try TestHTTPClient.send(
                "GET", "/items.json", port: served.port, headers: Self.fromElsewhere(), timeout: .seconds(60))
            #expect(answer.status == 200)
            #expect((answer.headers["Access-Control-Allow-Origin"] == "*") == on, "\(arguments) \(environment)")
        }
    }
}
