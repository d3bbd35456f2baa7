import Foundation
import HTTPTestSupport
import Testing

@testable import Cellar

/// An error page's frame is a list page's, over sockets: its navigation leaves out the lists its
/// actor may not view and names the signed-in actor, though the server renders errors from the
/// request as it arrived, outside the sign-in middleware.
@Suite struct ErrorPageFrameTests {
    static let catalogLink = ValidatorsAfterReloadTests.catalogLink

    @Test func anErrorPageShowsTheNavigationItsActorMayFollow() throws {
        let (server, file) = try ValidatorsAfterReloadTests.server(permissions: "  /catalog: {view: [bob]}")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let alice = try server.signIn("alice", SignInFixture.alicePassword)
        let bob = try server.signIn("bob", SignInFixture.bobPassword)
        // A path no route answers, and a row a list does not have: both the server's 404 pages.
        for target in ["/nowhere", "/people/9999"] {
            for (who, cookie) in [("anonymous", nil), ("alice", alice), ("bob", bob)] {
                let page = try server.get(target, headers: cookie.map { [("Cookie", $0)] } ?? [])
                #expect(page.status == 404, "\(target) \(who)")
                #expect(page.text.contains(#"<a href="/people""#), "\(target) \(who)")
                #expect(page.text.contains(Self.catalogLink) == (who == "bob"), "\(target) \(who)")
                #expect(page.text.contains("Signed in as <strong>\(who)</strong>") == (who != "anonymous"), "\(target) \(who)")
            }
        }
        // A refusal is an error page too: alice's 403 does not offer the list it refuses.
        let refused = try server.get("/catalog", headers: [("Cookie", alice)])
        #expect(refused.status == 403)
        #expect(!refused.text.contains(Self.catalogLink))
        // A cookie that does not verify is nobody's.
        let forged = try server.get("/nowhere", headers: [("Cookie", "cellar_session=forged")])
        #expect(forged.status == 404)
        #expect(!forged.text.contains("Signed in as") && !forged.text.contains(Self.catalogLink))
    }
}
