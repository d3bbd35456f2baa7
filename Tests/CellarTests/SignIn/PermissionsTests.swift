import Foundation
import HTTPTestSupport
import Testing

@testable import Cellar

/// Who may do what: every kind of grant (an account, a group, `signed-in`, `anyone`, by path, by
/// name, `"*"`), the defaults, and the answers a refusal gets, over sockets.
@Suite struct PermissionsTests {
    static let alice = SignedInActor(name: "alice", groups: ["editors"])
    static let bob = SignedInActor(name: "bob")

    @Test func byDefaultAnyoneViewsAndNobodyWrites() {
        let permissions = Permissions()
        for actor in [nil, Self.alice] {
            #expect(permissions.allows(actor, .view, path: "/notes"))
            #expect(permissions.allows(actor, .query, path: nil))
            for action in [Action.insert, .update, .delete] { #expect(!permissions.allows(actor, action, path: "/notes"), "\(action)") }
        }
    }

    @Test func everyKindOfGrant() {
        var permissions = Permissions()
        permissions.grant(.insert, on: "notes", to: "alice")
        permissions.grant(.update, on: "notes", to: "editors")
        permissions.grant(.delete, on: "notes", to: Permissions.signedIn)
        permissions.grant(.view, on: "notes", to: Permissions.anyone)
        // By account, by group, any signed-in account, anyone.
        #expect(permissions.allows(Self.alice, .insert, path: "/notes"))
        #expect(!permissions.allows(Self.bob, .insert, path: "/notes"))
        #expect(permissions.allows(Self.alice, .update, path: "/notes"))
        #expect(!permissions.allows(Self.bob, .update, path: "/notes"))
        #expect(permissions.allows(Self.bob, .delete, path: "/notes"))
        #expect(!permissions.allows(nil, .delete, path: "/notes"))
        #expect(permissions.allows(nil, .view, path: "/notes"))
        // Another list has none of these.
        #expect(!permissions.allows(Self.alice, .insert, path: "/drafts"))
    }

    @Test func aListsOwnEntryReplacesEveryListsAndAPathBeatsAName() {
        var permissions = Permissions()
        permissions.grant(.view, on: Permissions.everyList, to: Permissions.signedIn)
        permissions.grant(.update, on: Permissions.everyList, to: "editors")
        permissions.grant(.view, on: "public", to: Permissions.anyone)
        permissions.grant(.update, on: "notes", to: "alice")
        permissions.grant(.update, on: "/notes", to: "bob")
        #expect(!permissions.allows(nil, .view, path: "/drafts"))
        #expect(permissions.allows(Self.bob, .view, path: "/drafts"))
        #expect(permissions.allows(nil, .view, path: "/public"))
        // notes names update only: its view is still "*"'s.
        #expect(!permissions.allows(nil, .view, path: "/notes"))
        #expect(permissions.allows(Self.bob, .update, path: "/notes"))
        #expect(!permissions.allows(Self.alice, .update, path: "/notes"))
        #expect(permissions.allows(Self.alice, .update, path: "/drafts"))
    }

    /// For each action on its own: a path's entry, else the table's name's, else `"*"`'s, else the default.
    @Test func aNamesEntryGivesTheActionsThePathsEntryDoesNotName() {
        var permissions = Permissions()
        permissions.grant(.update, on: "/notes", to: "bob")
        #expect(!permissions.allows(Self.alice, .insert, path: "/notes"))
        permissions.grant(.insert, on: "notes", to: "alice")
        permissions.grant(.update, on: "notes", to: "alice")
        permissions.grant(.delete, on: Permissions.everyList, to: "editors")
        #expect(permissions.allows(Self.alice, .insert, path: "/notes"))
        #expect(!permissions.allows(Self.alice, .update, path: "/notes"))
        #expect(permissions.allows(Self.bob, .update, path: "/notes"))
        #expect(permissions.allows(Self.alice, .delete, path: "/notes"))
        #expect(permissions.grantees(of: .update, path: "/notes") == ["bob"])
        #expect(permissions.grantees(of: .insert, path: "/notes") == ["alice"])
        #expect(permissions.grantees(of: .delete, path: "/notes") == ["editors"])
        // A detail inherits its list's, action by action; a name never names a detail.
        permissions.grant(.insert, on: "/notes/:id", to: "bob")
        permissions.grant(.update, on: "notes/:id", to: "carol")
        #expect(permissions.grantees(of: .insert, path: "/notes/:id") == ["bob"])
        #expect(permissions.grantees(of: .update, path: "/notes/:id") == ["bob"])
        // Grants replaced whole are read anew.
        permissions.grants = ["notes": [.update: [Permissions.signedIn]]]
        #expect(permissions.allows(Self.alice, .update, path: "/notes"))
        #expect(!permissions.allows(nil, .update, path: "/notes"))
        #expect(!permissions.allows(Self.alice, .insert, path: "/notes"))
    }

    @Test func queryIsOpenOnlyWhileEveryListIsOpen() {
        var permissions = Permissions()
        permissions.grant(.view, on: "public", to: Permissions.anyone)
        #expect(permissions.allows(nil, .query, path: nil))
        permissions.grant(.view, on: "secrets", to: "alice")
        #expect(!permissions.allows(nil, .query, path: nil))
        #expect(!permissions.allows(Self.alice, .query, path: nil))
        permissions.grant(.query, on: Permissions.everyList, to: "alice")
        #expect(permissions.allows(Self.alice, .query, path: nil))
    }

    @Test func theSQLPageAndCannedQueriesNeedQueryAndAListsPathsNeedView() throws {
        let server = try SignInFixture.server()
        let middleware = SignInMiddleware(control: try #require(server.app.accessControl))
        for path in ["/-/query", "/-/query.json", "/-/query.csv", "/-/queries/by_vintage", "/db/-/query"] {
            #expect(middleware.requirement(of: Request(path: path))?.0 == .query, "\(path)")
        }
        for path in ["/people", "/people.json", "/people/"] {
            let requirement = middleware.requirement(of: Request(path: path))
            #expect(requirement?.0 == .view && requirement?.1 == "/people", "\(path)")
        }
        // A detail's own key, which falls back to its list's grants.
        for path in ["/people/3", "/people/3.json", "/people/watch"] {
            let requirement = middleware.requirement(of: Request(path: path))
            #expect(requirement?.0 == .view && requirement?.1 == "/people/:id" && requirement?.2 == "/people", "\(path)")
        }
        for path in ["/", "/whoami", "/-/signin", "/peoplex"] { #expect(middleware.requirement(of: Request(path: path)) == nil, "\(path)") }
    }

    /// A server whose lists are each granted otherwise, and a page that needs `insert`, `update` or `delete` on notes.
    static func server() throws -> TestServer {
        try SignInFixture.server { app in
            app.access.permissions.grant(.view, on: Permissions.everyList, to: Permissions.signedIn)
            app.access.permissions.grant(.view, on: "people", to: "editors")
            app.access.permissions.grant(.view, on: "/listbench", to: "bob")
            app.access.permissions.grant(.view, on: "/big", to: Permissions.anyone)
            app.access.permissions.grant(.query, on: Permissions.everyList, to: "alice")
            app.access.permissions.grant(.insert, on: "notes", to: "editors")
            app.access.permissions.grant(.update, on: "notes", to: Permissions.signedIn)
            app.access.permissions.grant(.delete, on: "/notes", to: "alice")
            app.route(.get, "/-/query") { _ in .text("rows") }
            for action in [Action.insert, .update, .delete] {
                app.page("/notes/\(action.rawValue)", title: "Notes", .post) { request, page in
                    try app.accessControl?.require(request, action, on: "/notes")
                    page.html.text("done")
                    return .ok
                }
            }
        }
    }

    @Test func refusalsOverSockets() throws {
        let server = try Self.server()
        let alice = try server.signIn("alice", SignInFixture.alicePassword)
        let bob = try server.signIn("bob", SignInFixture.bobPassword)
        func status(_ target: String, _ cookie: String?, json: Bool = false) throws -> Int {
            var headers = cookie.map { [("Cookie", $0)] } ?? []
            headers.append(("Accept", json ? "application/json" : "text/html"))
            return try server.get(target, headers: headers).status
        }
        // A group's list (by name): alice is an editor, bob is not.
        #expect(try status("/people", alice) == 200)
        #expect(try status("/people/1", alice) == 200)
        #expect(try status("/people", bob) == 403)
        #expect(try status("/people.json", bob) == 403)
        #expect(try status("/people/1", bob) == 403)
        // An account's list (by path).
        #expect(try status("/listbench", bob) == 200)
        #expect(try status("/listbench", alice) == 403)
        // "*": any signed-in account; a list of anyone's.
        #expect(try status("/catalog", bob) == 200)
        #expect(try status("/catalog", nil) == 303)
        #expect(try status("/big", nil) == 200)
        // The SQL page: query, alice's only.
        #expect(try status("/-/query", alice) == 200)
        #expect(try status("/-/query", bob) == 403)
        #expect(try status("/-/query", nil, json: true) == 401)

        // The index lists what its reader may view.
        func indexed(_ cookie: String?) throws -> Set<String> {
            let text = try server.get("/index.json", headers: cookie.map { [("Cookie", $0)] } ?? []).text
            return Set(["/people", "/listbench", "/catalog", "/big"].filter { text.contains("\"path\":\"\($0)\"") })
        }
        #expect(try indexed(nil) == ["/big"])
        #expect(try indexed(bob) == ["/listbench", "/catalog", "/big"])
        #expect(try indexed(alice) == ["/people", "/catalog", "/big"])

        // An anonymous browser is sent to sign in, and back; anything else gets today's JSON error.
        let redirect = try server.get("/people?limit=5", headers: [("Accept", "text/html")])
        #expect(redirect.status == 303)
        #expect(redirect.headers["Location"] == "/-/signin?next=%2Fpeople%3Flimit%3D5")
        // curl's Accept: */* does not ask for HTML.
        #expect(try server.get("/people", headers: [("Accept", "*/*")]).status == 401)
        let json = try server.get("/people.json")
        #expect(json.status == 401)
        #expect(try json.json()["error"]?["status"] == .integer(401))
        let forbidden = try server.getAcceptingJSON("/people.json", headers: [("Cookie", bob)])
        #expect(forbidden.status == 403)
        #expect(try forbidden.json()["error"]?["status"] == .integer(403))

        // insert (a group), update (signed-in), delete (an account), checked by the app's page.
        func post(_ action: Action, _ cookie: String?) throws -> Int {
            try server.post("/notes/\(action.rawValue)", form: "", headers: cookie.map { [("Cookie", $0)] } ?? []).status
        }
        #expect(try post(.insert, alice) == 200)
        #expect(try post(.insert, bob) == 403)
        #expect(try post(.update, bob) == 200)
        #expect(try post(.update, nil) == 401)
        #expect(try post(.delete, alice) == 200)
        #expect(try post(.delete, bob) == 403)
    }

    @Test func aPrivateSiteNeedsASignedInActorButForSignInProbesAndAssets() throws {
        let server = try SignInFixture.server { app in app.signIn.isPrivate = true }
        for open in ["/-/signin", "/healthz", "/readyz", "/static/app.css"] {
            #expect(try server.get(open, headers: [("Accept", "text/html")]).status == 200, "\(open)")
        }
        for closed in ["/", "/people", "/people/1", "/whoami", "/nowhere"] {
            let response = try server.get(closed, headers: [("Accept", "text/html")])
            #expect(response.status == 303, "\(closed)")
            #expect(response.headers["Location"]?.hasPrefix("/-/signin?next=") == true)
        }
        #expect(try server.get("/people.json").status == 401)
        #expect(try server.getAcceptingJSON("/people").status == 401)
        // Signing out needs no session (an expired one, say); /-/signin's look-alikes are closed.
        #expect(try TestHTTPClient.send("POST", "/-/signout", port: server.port, timeout: .seconds(60)).status == 303)
        #expect(try server.get("/-/signinx", headers: [("Accept", "text/html")]).status == 303)
        let cookie = try server.signIn("bob", SignInFixture.bobPassword)
        #expect(try server.get("/people", headers: [("Cookie", cookie)]).status == 200)
        #expect(try server.whoami(cookie: cookie) == "bob")
    }
}
