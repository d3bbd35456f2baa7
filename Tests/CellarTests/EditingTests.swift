import Cellar
import Foundation
import HTTPTestSupport
import Showcase
import TableKit
import Testing

/// Editing mode over sockets, on the showcase's `/to-drink` (anyone may edit) and two lists of the
/// test's own: one no one may change, one whose commits throw. Every change is a form POST to
/// `{list}/-/editing` answered 303 back to the list in editing mode, or the list again with the
/// message in the row (409, 422).
@Suite struct EditingTests {
    /// A list whose changes all fail: a delete with a message for the person, an action with an
    /// error the person must not read.
    struct GrumpyController: EditableTableController {
        struct StoreFault: Error, CustomStringConvertible {
            var description: String { "disk full at /var/secret-path-4711" }
        }
        func numberOfRows(inSection section: Int) -> Int { 2 }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            DataCellProvider(for: indexPath, cell: PlainTextCell.self, data: "grump \(indexPath.row)")
        }
        func commit(_ editingStyle: EditingStyle, forRowAt indexPath: IndexPath, context: EditingContext) throws {
            throw EditingError("Bottles of this kind stay on the list.")
        }
        func trailingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration? {
            SwipeActionsConfiguration(actions: [ContextualAction(style: .normal, title: "Open", identifier: "open") { _ in throw StoreFault() }])
        }
    }

    static func server() throws -> TestServer {
        try TestServer { app in
            try Showcase.install(in: app, peopleCount: 10, listbenchCount: 10, bigCount: 10)
            try app.register(PlainTextCell.self)
            app.list("/grumpy", paging: .unpaged, hasDetail: false) { _ in GrumpyController() }
            app.list("/locked", paging: .unpaged, hasDetail: false) { _ in GrumpyController() }
            for action in [Action.insert, .update, .delete] { app.access.permissions.grant(action, on: "/grumpy", to: Permissions.anyone) }
        }
    }

    static let browser = [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "same-origin")]

    static func post(_ server: TestServer, _ body: String, list: String = "/to-drink", headers: [(String, String)] = browser) throws
        -> TestHTTPResponse
    {
        try TestHTTPClient.send("POST", list + "/-/editing", port: server.port, headers: headers, body: Array(body.utf8), timeout: .seconds(60))
    }

    /// The version the editing page shows for a row.
    static func version(of row: String, in server: TestServer, list: String = "/to-drink") throws -> String {
        let html = try server.get(list + "?editing=1").text
        let start = try #require(html.range(of: "id=\"row-\(row)\""))
        let marker = "name=\"_version\" value=\""
        let versionStart = try #require(html.range(of: marker, range: start.upperBound..<html.endIndex))
        return String(html[versionStart.upperBound...].prefix { $0 != "\"" })
    }

    static func wines(_ server: TestServer) throws -> [String] {
        let json = try server.getAcceptingJSON("/to-drink.json").json()
        guard case .array(let sections)? = json["sections"], case .array(let rows)? = sections.first?["rows"] else { return [] }
        return rows.compactMap { row in
            if case .string(let wine)? = row["item"]?["wine"] { return wine }
            return nil
        }
    }

    @Test func theListOffersEditAndEditingModeShowsOnlyTheControlsAllowed() throws {
        let server = try Self.server()
        let list = try server.get("/to-drink").text
        #expect(list.contains(#"<a class="button editing-start" href="/to-drink?editing=1">Edit</a>"#))
        let page = try server.get("/to-drink?editing=1")
        #expect(page.status == 200)
        #expect(page.headers["Cache-Control"] == "no-store")
        let html = page.text
        #expect(html.contains(#"<a class="button editing-done" href="/to-drink">Done</a>"#))
        #expect(html.contains(#"<form class="editing-buttons" method="post" action="/to-drink/-/editing">"#))
        #expect(html.contains(#"<input type="hidden" name="_row" value="1">"#))
        #expect(html.contains(#"value="action:drunk">Mark as drunk</button>"#))
        #expect(html.contains(#"class="button editing-action editing-destructive" value="action:remove">Remove</button>"#))
        #expect(html.contains(#"value="delete" class="button editing-delete">Delete</button>"#))
        #expect(html.contains(#"<a class="button editing-edit" href="/to-drink?editing=1&amp;_edit=1#row-1">Edit</a>"#))
        #expect(html.contains(#"<a class="button editing-add" href="/to-drink?editing=1&amp;_insert=0#insert-0">Add a row</a>"#))
        // The first row cannot move up, the last not down: 3 rows, 2 of each.
        #expect(html.components(separatedBy: ">Move up</button>").count - 1 == 2)
        #expect(html.components(separatedBy: ">Move down</button>").count - 1 == 2)
        // Editing mode is watched live: its window's patched rows carry their controls (EditingLiveTests).
        #expect(html.contains("data-list=\"to-drink\""))

        // No one may change /locked: no Edit button, and editing mode is the list as it is.
        #expect(!(try server.get("/locked").text.contains("editing-start")))
        let locked = try server.get("/locked?editing=1").text
        #expect(!locked.contains("editing-buttons"))
        #expect(!locked.contains("editing-done"))
    }

    @Test func anInsertRowAddsAtTheSectionsEndAndComesBackToTheList() throws {
        let server = try Self.server()
        let open = try server.get("/to-drink?editing=1&_insert=0").text
        #expect(open.contains(#"<input type="hidden" name="_do" value="insert"><input type="hidden" name="_section" value="0">"#))
        #expect(open.contains(#"id="field-wine" name="wine" required"#))
        let added = try Self.post(server, "_do=insert&_section=0&_return=q%3D&wine=Barolo&vintage=2016&drunk=0&drunk=1")
        #expect(added.status == 303)
        #expect(added.headers["Location"] == "/to-drink?q=&editing=1")
        #expect(try Self.wines(server).last == "Barolo")
        #expect(server.logs.all.contains { $0.message == "list changed" && $0.metadata["action"] == "insert" })
        // A required field left empty: 422, the insert row open with its message and the values kept.
        let refused = try Self.post(server, "_do=insert&_section=0&wine=&vintage=1999&drunk=0")
        #expect(refused.status == 422)
        #expect(refused.text.contains("Wine is required."))
        #expect(refused.text.contains(#"value="1999""#))
        #expect(try Self.wines(server).count == 4)
    }

    @Test func aRowIsEditedInPlaceAndAStaleVersionIs409WithTheRowAsItIsNow() throws {
        let server = try Self.server()
        let form = try server.get("/to-drink?editing=1&_edit=2").text
        #expect(
            form.contains(
                #"<li class="cell editing-open" id="row-2"><form class="form editing-form" method="post" novalidate action="/to-drink/-/editing">"#))
        #expect(form.contains(#"value="Château Musar 2017""#))
        let version = try Self.version(of: "1", in: server)
        let stale = try Self.version(of: "2", in: server)
        let saved = try Self.post(server, "_do=save&_row=2&_version=\(stale)&wine=Musar+2018&vintage=2018&drunk=0")
        #expect(saved.status == 303)
        #expect(try Self.wines(server)[1] == "Musar 2018")
        // The page that showed the old row saves again: refused, nothing overwritten.
        let conflict = try Self.post(server, "_do=save&_row=2&_version=\(stale)&wine=Mine&vintage=&drunk=0")
        #expect(conflict.status == 409)
        #expect(conflict.text.contains("Someone else changed this row since you opened it"))
        #expect(conflict.text.contains(#"value="Mine""#))
        #expect(conflict.text.contains("<dt>Wine</dt><dd>Musar 2018</dd>"))
        #expect(try Self.wines(server)[1] == "Musar 2018")
        // Delete, move and actions check the version too.
        for change in ["delete", "down", "action:drunk"] {
            let refused = try Self.post(server, "_do=\(change)&_row=2&_version=\(stale)")
            #expect(refused.status == 409, "\(change)")
        }
        #expect(try Self.wines(server).count == 3)
        _ = version
    }

    @Test func aDeleteTakesEffectAtOnceAndOffersUndoOnce() throws {
        let server = try Self.server()
        let version = try Self.version(of: "2", in: server)
        let deleted = try Self.post(server, "_do=delete&_row=2&_version=\(version)")
        #expect(deleted.status == 303)
        let location = try #require(deleted.headers["Location"])
        #expect(location.hasPrefix("/to-drink?editing=1&_undo=u1."))
        #expect(try Self.wines(server) == ["Domaine Tempier Bandol 2019", "Vietti Barolo Castiglione 2018"])
        let page = try server.get(location).text
        #expect(page.contains(#"<form class="editing-undo" role="status" method="post" action="/to-drink/-/editing"><span>Row deleted.</span>"#))
        let tokenStart = try #require(page.range(of: #"name="_token" value=""#))
        let token = String(page[tokenStart.upperBound...].prefix { $0 != "\"" })
        let undone = try Self.post(server, "_do=undo&_token=\(token)")
        #expect(undone.status == 303)
        #expect(try Self.wines(server) == ["Domaine Tempier Bandol 2019", "Château Musar 2017", "Vietti Barolo Castiglione 2018"])
        #expect(try Self.version(of: "2", in: server) == version)
        // Once: the row is back under its identifier.
        let again = try Self.post(server, "_do=undo&_token=\(token)")
        #expect(again.status == 409)
        #expect(again.text.contains("This row is back already"))
        // A token tampered with, or another's, undoes nothing.
        let tampered = try Self.post(server, "_do=undo&_token=\(token.dropLast(2))AA")
        #expect(tampered.status == 409)
        #expect(tampered.text.contains("can no longer be undone"))
        #expect(try Self.wines(server).count == 3)
    }

    @Test func moveUpAndDownAndSwipeActionsChangeTheStore() throws {
        let server = try Self.server()
        let moved = try Self.post(server, "_do=down&_row=1&_version=\(try Self.version(of: "1", in: server))")
        #expect(moved.status == 303)
        #expect(try Self.wines(server) == ["Château Musar 2017", "Domaine Tempier Bandol 2019", "Vietti Barolo Castiglione 2018"])
        let up = try Self.post(server, "_do=up&_row=3&_version=\(try Self.version(of: "3", in: server))")
        #expect(up.status == 303)
        #expect(try Self.wines(server) == ["Château Musar 2017", "Vietti Barolo Castiglione 2018", "Domaine Tempier Bandol 2019"])
        let drunk = try Self.post(server, "_do=action:drunk&_row=2&_version=\(try Self.version(of: "2", in: server))")
        #expect(drunk.status == 303)
        #expect(try server.get("/to-drink").text.contains(#"<span class="cell-subtitle">drunk</span>"#))
        let removed = try Self.post(server, "_do=action:remove&_row=2&_version=\(try Self.version(of: "2", in: server))")
        #expect(removed.status == 303)
        #expect(try Self.wines(server) == ["Vietti Barolo Castiglione 2018", "Domaine Tempier Bandol 2019"])
    }

    @Test func changesAreRefusedWithoutPermissionAndFromAnotherSite() throws {
        let server = try Self.server()
        let refused = try Self.post(server, "_do=delete&_row=0&_version=x", list: "/locked")
        #expect(refused.status == 403)
        let version = try Self.version(of: "1", in: server)
        let crossSite = try Self.post(
            server, "_do=delete&_row=1&_version=\(version)",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "cross-site")])
        #expect(crossSite.status == 403)
        let byOrigin = try Self.post(
            server, "_do=delete&_row=1&_version=\(version)",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "https://evil.example")])
        #expect(byOrigin.status == 403)
        #expect(try Self.wines(server).count == 3)
    }

    @Test func aCommitsErrorIsAMessageInTheRowNeverA500() throws {
        let server = try Self.server()
        let version = try Self.version(of: "0", in: server, list: "/grumpy")
        let kept = try Self.post(server, "_do=delete&_row=0&_version=\(version)", list: "/grumpy")
        #expect(kept.status == 422)
        #expect(kept.text.contains(#"<div class="editing-notice" role="alert"><p>Bottles of this kind stay on the list.</p></div>"#))
        let fault = try Self.post(
            server, "_do=action:open&_row=1&_version=\(try Self.version(of: "1", in: server, list: "/grumpy"))", list: "/grumpy")
        #expect(fault.status == 422)
        #expect(fault.text.contains("The change was not made: the server could not make it."))
        #expect(!fault.text.contains("secret-path-4711"))
        #expect(server.logs.all.contains { $0.message == "change failed" && $0.metadata["error"]?.contains("secret-path-4711") == true })
    }

    @Test func hostileValuesAre4xxOrKeptAsTextAndLoseNothing() throws {
        let server = try Self.server()
        let markup = "%3Cscript%3Ealert(1)%3C%2Fscript%3E%22%27%00"
        let added = try Self.post(server, "_do=insert&_section=0&wine=\(markup)&vintage=&drunk=0")
        #expect(added.status == 303)
        let html = try server.get("/to-drink?editing=1").text
        #expect(!html.contains("<script>alert(1)"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        let before = try Self.wines(server)
        let cases: [(String, Int)] = [
            ("_do=explode&_row=1", 400),
            ("_row=1", 400),
            ("_do=delete", 400),
            ("_do=delete&_row=1", 400),
            ("_do=delete&_row=..%2F..%2Fetc%2Fpasswd&_version=x", 409),
            ("_do=action:nope&_row=1&_version=\(try Self.version(of: "1", in: server))", 400),
            ("_do=insert&_section=%27%3B+DROP+TABLE+x&wine=a&drunk=0", 409),
            ("_do=insert&_section=0&wine=\(String(repeating: "w", count: 121))&drunk=0", 400),
            ("_do=insert&_section=0&wine=a&vintage=1e999&drunk=0", 422),
            ("_do=undo&_token=\(String(repeating: "A", count: 5000))", 409),
            ("_do=insert&_section=0&_return=%2F%2Fevil.example%2F&wine=ok&drunk=0", 303),
        ]
        for (body, status) in cases {
            let response = try Self.post(server, body)
            #expect(response.status == status, "\(body.prefix(60)): \(response.status)")
            if status == 303 { #expect(response.headers["Location"]?.hasPrefix("/to-drink?") == true) }
        }
        let megabyte = try Self.post(server, "_do=insert&_section=0&wine=" + String(repeating: "x", count: 1 << 20))
        #expect(megabyte.status == 413)
        #expect(try Self.wines(server).count == before.count + 1)
    }
}
