import Foundation
import HTTPTestSupport
import Testing

/// The showcase's sample database in development (`make run`): the demo account edits the wines in
/// editing mode (delete, Undo, the search index kept in step); visitors see no controls and are
/// refused; without `--development` the file is served read-only.
@Suite(.serialized) struct ShowcaseDatabaseEditingTests {
    typealias Showcase = DemoAccountTests.Showcase

    static func form(_ port: Int, _ path: String, _ body: String, cookie: String?) throws -> TestHTTPResponse {
        var headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "same-origin")]
        if let cookie { headers.append(("Cookie", cookie)) }
        return try TestHTTPClient.send("POST", path, port: port, headers: headers, body: Array(body.utf8), timeout: .seconds(60))
    }

    /// The value of the first hidden input called `name` in `page`.
    static func hidden(_ name: String, in page: String) throws -> String {
        let start = try #require(page.range(of: "name=\"\(name)\" value=\""))
        return String(page[start.upperBound...].prefix { $0 != "\"" })
    }

    @Test func theDemoAccountEditsTheWinesAndVisitorsSeeNoControls() throws {
        let showcase = try Showcase(["--development"])
        let port = try showcase.waitForPort()
        defer { showcase.stop() }
        let line = try #require(showcase.text(showcase.errors).split(separator: "\n").first { $0.hasPrefix("Demo account: demo, password ") })
        let password = String(line.dropFirst("Demo account: demo, password ".count).prefix { $0 != " " })
        let signedIn = try showcase.signIn(port: port, "demo", password)
        let cookie = String(try #require(signedIn.headers["Set-Cookie"]).split(separator: ";")[0])

        // A visitor: no Edit, no controls, a change refused.
        let visitor = try TestHTTPClient.send("GET", "/db/wines", port: port, timeout: .seconds(60))
        #expect(visitor.status == 200)
        #expect(!visitor.text.contains("editing-start"))
        #expect(!(try TestHTTPClient.send("GET", "/db/wines?editing=1", port: port, timeout: .seconds(60)).text.contains("editing-controls")))
        #expect([401, 403].contains(try Self.form(port, "/db/wines/-/editing", "_do=delete&_row=1&_version=x", cookie: nil).status))

        // The demo account: Edit, and a delete then its Undo, the search finding the wine again.
        #expect(
            try TestHTTPClient.send("GET", "/db/wines", port: port, headers: [("Cookie", cookie)], timeout: .seconds(60)).text.contains(
                "editing-start"))
        let page = try TestHTTPClient.send("GET", "/db/wines?editing=1", port: port, headers: [("Cookie", cookie)], timeout: .seconds(60)).text
        let row = try Self.hidden("_row", in: page)
        let version = try Self.hidden("_version", in: page)
        let detail = try TestHTTPClient.send("GET", "/db/wines/\(row).json", port: port, timeout: .seconds(60))
        #expect(detail.status == 200)
        let deleted = try Self.form(port, "/db/wines/-/editing", "_do=delete&_row=\(row)&_version=\(version)", cookie: cookie)
        #expect(deleted.status == 303, "\(deleted.text.prefix(400))")
        #expect(try TestHTTPClient.send("GET", "/db/wines/\(row)", port: port, timeout: .seconds(60)).status == 404)
        let location = try #require(deleted.headers["Location"])
        let token = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "_undo" }?.value)
        let encoded = try #require(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let undone = try Self.form(port, "/db/wines/-/editing", "_do=undo&_token=\(encoded)", cookie: cookie)
        #expect(undone.status == 303, "\(undone.text.prefix(400))")
        let back = try TestHTTPClient.send("GET", "/db/wines/\(row).json", port: port, timeout: .seconds(60))
        #expect(back.status == 200)
        #expect(back.headers["ETag"] == detail.headers["ETag"])
        // Regions are not the demo account's to change.
        #expect(
            !(try TestHTTPClient.send("GET", "/db/regions", port: port, headers: [("Cookie", cookie)], timeout: .seconds(60)).text.contains(
                "editing-start")))
    }

    @Test func withoutDevelopmentTheSampleIsReadOnly() throws {
        let showcase = try Showcase([])
        let port = try showcase.waitForPort()
        defer { showcase.stop() }
        #expect(!(try TestHTTPClient.send("GET", "/db/wines", port: port, timeout: .seconds(60)).text.contains("editing-start")))
        #expect([403, 404].contains(try Self.form(port, "/db/wines/-/editing", "_do=delete&_row=1&_version=x", cookie: nil).status))
        #expect(try TestHTTPClient.send("GET", "/db/wines/1", port: port, timeout: .seconds(60)).status == 200)
    }
}
