import Foundation
import HTTPTestSupport
import Testing

@testable import Cellar

/// A list page's validator follows what its actor may do and view, over sockets: after a reload of
/// `--config` (what SIGHUP runs) changes the grants, an `If-None-Match` from before is answered
/// 200 with the new navigation or "Edit" button, not 304; tokens of one actor with other scopes
/// get other validators.
@Suite struct ValidatorsAfterReloadTests {
    /// The showcase's small lists, alice and bob, read from a `--config` file that ``reload(_:_:)`` rewrites.
    static func server(permissions: String) throws -> (TestServer, String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cellar-reload-\(UUID().uuidString).yaml").path
        try write(permissions, to: file)
        let server = try SignInFixture.server { app in
            app.databaseConfigurationPath = file
            app.access = try AccessConfiguration.load(path: file)
        }
        return (server, file)
    }

    static func write(_ permissions: String, to file: String) throws {
        let yaml = """
            accounts:
              alice: {password: "\(SignInFixture.aliceHash)", groups: [editors]}
              bob: {password: "\(SignInFixture.bobHash)"}
            permissions:
            \(permissions)
            """
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
    }

    static func reload(_ server: TestServer, _ permissions: String, file: String) throws {
        try write(permissions, to: file)
        server.app.reloadAccessConfiguration()
    }

    static let catalogLink = #"<a href="/catalog""#

    @Test func aReloadThatHidesAListAnswersAStaleValidatorWithTheNewNavigation() throws {
        let (server, file) = try Self.server(permissions: "  /reports: {view: [anyone]}")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let alice = try server.signIn("alice", SignInFixture.alicePassword)
        var before: [String?: String] = [:]
        for cookie in [nil, alice] {
            let headers = cookie.map { [("Cookie", $0)] } ?? []
            let page = try server.get("/people", headers: headers)
            #expect(page.text.contains(Self.catalogLink))
            let tag = try #require(page.headers["ETag"])
            #expect(try server.get("/people", headers: headers + [("If-None-Match", tag)]).status == 304, "the same rights: the same page")
            before[cookie] = tag
        }

        try Self.reload(server, "  /catalog: {view: [bob]}", file: file)
        for cookie in [nil, alice] {
            let headers = cookie.map { [("Cookie", $0)] } ?? []
            let page = try server.get("/people", headers: headers + [("If-None-Match", try #require(before[cookie]))])
            #expect(page.status == 200, "\(cookie ?? "anonymous"): the navigation changed")
            #expect(!page.text.contains(Self.catalogLink))
            let tag = try #require(page.headers["ETag"])
            #expect(tag != before[cookie])
            #expect(try server.get("/people", headers: headers + [("If-None-Match", tag)]).status == 304)
        }
        // bob, who may view the catalog, still has it in his navigation.
        let bob = try server.signIn("bob", SignInFixture.bobPassword)
        #expect(try server.get("/people", headers: [("Cookie", bob)]).text.contains(Self.catalogLink))
    }

    @Test func aReloadThatGrantsAChangeAnswersAStaleValidatorWithTheEditButton() throws {
        let (server, file) = try Self.server(permissions: "  /to-drink: {update: [bob]}")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let alice = try server.signIn("alice", SignInFixture.alicePassword)
        let page = try server.get("/to-drink", headers: [("Cookie", alice)])
        #expect(page.status == 200)
        #expect(!page.text.contains("editing-start"))
        let tag = try #require(page.headers["ETag"])

        try Self.reload(server, "  /to-drink: {update: [editors]}", file: file)
        let after = try server.get("/to-drink", headers: [("Cookie", alice), ("If-None-Match", tag)])
        #expect(after.status == 200)
        #expect(after.text.contains("editing-start"))
        #expect(after.headers["ETag"] != tag)

        // A reload that changes nothing alice sees still moves the validators: one 200, then 304s.
        try Self.reload(server, "  /to-drink: {update: [editors]}", file: file)
        let same = try server.get("/to-drink", headers: [("Cookie", alice), ("If-None-Match", try #require(after.headers["ETag"]))])
        #expect(same.status == 200)
        #expect(same.body == after.body)
    }

    @Test func tokensOfOneActorWithOtherScopesHaveOtherValidators() throws {
        let (server, file) = try Self.server(permissions: "  /to-drink: {update: [alice]}")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let viewer = try BearerTokenTests.token("alice", ["view"])
        let editor = try BearerTokenTests.token("alice", ["view", "update:/to-drink"])
        let viewed = try server.get("/to-drink", headers: [("Authorization", "Bearer " + viewer)])
        let edited = try server.get("/to-drink", headers: [("Authorization", "Bearer " + editor)])
        #expect(viewed.status == 200 && edited.status == 200)
        #expect(!viewed.text.contains("editing-start"))
        #expect(edited.text.contains("editing-start"))
        let viewedTag = try #require(viewed.headers["ETag"])
        #expect(viewedTag != edited.headers["ETag"])
        let stale = try server.get("/to-drink", headers: [("Authorization", "Bearer " + editor), ("If-None-Match", viewedTag)])
        #expect(stale.status == 200)
        #expect(stale.text.contains("editing-start"))
        #expect(try server.get("/to-drink", headers: [("Authorization", "Bearer " + viewer), ("If-None-Match", viewedTag)]).status == 304)
    }
}
