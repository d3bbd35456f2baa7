import Cellar
import Foundation
import HTTPTestSupport
import TableKit
import Testing

/// Live lists with sign-in: a watched window is shared only by watchers with the same rights on
/// its list, and a session's streams end when the session does.
@Suite struct WatchingSignedInTests {
    /// Names, each with an "edit" control when the request's actor may update the list.
    struct NamesController: TableController {
        let rows: [(id: String, name: String)]
        let mayUpdate: Bool
        func numberOfRows(inSection section: Int) -> Int { rows.count }
        func identifier(forRowAt indexPath: IndexPath) -> String { rows[indexPath.row].id }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            let name = LiveListTests.Name(rows[indexPath.row].name + (mayUpdate ? " [edit-control]" : ""))
            return DataCellProvider(for: indexPath) { (cell: LiveListTests.NameCell) in cell.item = name }
        }
    }

    static func server(_ store: LiveListTests.Store, heartbeat: Int = 15, _ configure: (App) -> Void = { _ in }) throws -> TestServer {
        try SignInFixture.server(heartbeat: heartbeat) { app in
            try app.register(LiveListTests.NameCell.self)
            app.list("/names", title: "Names") { context in
                NamesController(rows: store.current, mayUpdate: app.accessControl?.permits(context.request, .update, on: "/names") == true)
            }
            configure(app)
        }
    }

    @Test func watchersWithOtherRightsGetWindowsOfTheirOwnAndEqualRightsShareOne() throws {
        let store = LiveListTests.Store([("a", "Ann"), ("b", "Ben")])
        let server = try Self.server(store) { app in app.access.permissions.grant(.update, on: "names", to: "alice", "bob") }
        let alice = try server.signIn("alice", SignInFixture.alicePassword)
        let bob = try server.signIn("bob", SignInFixture.bobPassword)
        let aliceWatch = try EventStreamClient(port: server.port, target: "/names", headers: [("Cookie", alice)])
        let bobWatch = try EventStreamClient(port: server.port, target: "/names", headers: [("Cookie", bob)])
        let anonymousWatch = try EventStreamClient(port: server.port, target: "/names")
        #expect([aliceWatch.status, bobWatch.status, anonymousWatch.status] as [Int] == [200, 200, 200])
        // alice and bob may both view and update: one window; the visitor only views: another.
        #expect(server.app.watchers.windowCount == 2)

        store.set([("a", "Ann"), ("c", "Cy"), ("b", "Ben")])
        server.app.listDidChange(at: "/names")
        for editor in [aliceWatch, bobWatch] {
            let batch = try LiveListTests.nextBatch(editor).data
            #expect(batch.contains("Cy [edit-control]"), "\(batch)")
        }
        let visitors = try LiveListTests.nextBatch(anonymousWatch).data
        #expect(visitors.contains("Cy"))
        #expect(!visitors.contains("edit-control"), "\(visitors)")

        // Rights changed by a reload: alice's next stream is a window of its own.
        var access = server.app.access
        access.permissions.grants["names"]?[.update] = ["alice"]
        try #require(server.app.accessControl).replace(with: access)
        let bobAgain = try EventStreamClient(port: server.port, target: "/names", headers: [("Cookie", bob)])
        #expect(bobAgain.status == 200)
        #expect(server.app.watchers.windowCount == 2, "bob now views only, as the visitor does")
        let aliceAgain = try EventStreamClient(port: server.port, target: "/names", headers: [("Cookie", alice)])
        #expect(aliceAgain.status == 200)
        #expect(server.app.watchers.windowCount == 2, "alice's rights are the same: her window")
    }

    @Test func aSessionsStreamEndsWhenTheSessionExpiresAndItsReconnectionIsSignedOut() throws {
        let store = LiveListTests.Store([("a", "Ann")])
        let server = try Self.server(store, heartbeat: 1) { app in
            app.access.permissions.grant(.view, on: "names", to: Permissions.signedIn)
            app.signIn.sessionLifetime = .seconds(3)
        }
        let alice = try server.signIn("alice", SignInFixture.alicePassword)
        let watch = try EventStreamClient(port: server.port, target: "/names", headers: [("Cookie", alice)])
        #expect(watch.status == 200)
        // Without an end the stream would go on with heartbeats until this times out.
        _ = try watch.eventsUntilEnd(timeout: .seconds(30))
        #expect(watch.ended)

        let again = try EventStreamClient(port: server.port, target: "/names", headers: [("Cookie", alice)])
        #expect(again.status == 401)
        #expect(try server.get("/names", headers: [("Cookie", alice), ("Accept", "text/html")]).status == 303)
    }

    @Test func aStreamWithoutASessionHasNoEnd() throws {
        let store = LiveListTests.Store([("a", "Ann")])
        let server = try Self.server(store, heartbeat: 1)
        let watch = try EventStreamClient(port: server.port, target: "/names")
        // Three heartbeats come, and the stream is still open.
        try watch.waitForComments(3, timeout: .seconds(30))
        #expect(!watch.ended)
        store.set([("a", "Ann"), ("b", "Ben")])
        server.app.listDidChange(at: "/names")
        #expect(try LiveListTests.nextBatch(watch).data.contains("Ben"))
    }
}
