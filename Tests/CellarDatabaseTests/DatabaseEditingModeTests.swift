import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// A writable table's list in editing mode (`?editing=1`, `POST {list}/-/editing`): delete with
/// Undo, edit in place, insert at the end and move by a position column, each through the table
/// writer, refused by version (409), by constraint (422, on the field), by permission and when
/// forged; the file checks itself after each.
@Suite struct DatabaseEditingModeTests {
    static let sql = """
        CREATE TABLE authors(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE books(
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER CHECK (year > 0),
            author_id INTEGER REFERENCES authors(id) ON DELETE CASCADE);
        CREATE TABLE queue(id INTEGER PRIMARY KEY, name TEXT NOT NULL, position INTEGER NOT NULL UNIQUE);
        CREATE TABLE frozen(id INTEGER PRIMARY KEY, t TEXT);
        INSERT INTO authors VALUES (1, 'Le Guin'), (2, 'Herbert');
        INSERT INTO books VALUES (1, 'Dune', 1965, 2), (2, 'Earthsea', 1968, 1);
        INSERT INTO queue VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3), (4, 'd', 10);
        INSERT INTO frozen VALUES (1, 'ice');
        """

    static func server() throws -> DatabaseWriteTestServer {
        var configuration = DatabaseConfiguration()
        var queue = DatabaseConfiguration.Table()
        queue.order = "position"
        configuration.tables["queue"] = queue
        var frozen = DatabaseConfiguration.Table()
        frozen.writable = false
        configuration.tables["frozen"] = frozen
        return try DatabaseWriteTestServer(sql: sql, configuration: configuration)
    }

    static func post(_ served: DatabaseWriteTestServer, _ path: String, _ form: String, cookie: String?, site: String = "same-origin") throws
        -> TestHTTPResponse
    {
        var headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", site)]
        if let cookie { headers.append(("Cookie", cookie)) }
        return try TestHTTPClient.send("POST", path, port: served.server.port, headers: headers, body: Array(form.utf8), timeout: .seconds(60))
    }

    /// The row's version, as its page's `ETag` gives it.
    static func version(_ served: DatabaseWriteTestServer, _ rowPath: String) throws -> String {
        let tag = try #require(try served.get(rowPath).headers["ETag"])
        return String(tag.dropFirst().dropLast())
    }

    static func expectIntact(_ served: DatabaseWriteTestServer) throws {
        #expect(try served.integrityCheck() == [[.text("ok")]])
        #expect(try served.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test func aDeleteIsUndoneUnlessItCascaded() throws {
        let served = try Self.server()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let version = try Self.version(served, "/books/1")
        let deleted = try Self.post(served, "/books/-/editing", "_do=delete&_row=1&_version=\(version)", cookie: alice)
        #expect(deleted.status == 303, "\(deleted.text.prefix(400))")
        #expect(try served.rows("SELECT count(*) FROM books WHERE id = 1") == [[.integer(0)]])
        let location = try #require(deleted.headers["Location"])
        let items = try #require(URLComponents(string: location)?.queryItems)
        let token = try #require(items.first { $0.name == "_undo" }?.value)
        let page = try served.get(location, headers: [("Cookie", alice)])
        #expect(page.text.contains("Row deleted."))
        // Undo puts the row back under its key, with its values.
        let encoded = try #require(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let undone = try Self.post(served, "/books/-/editing", "_do=undo&_token=\(encoded)", cookie: alice)
        #expect(undone.status == 303, "\(undone.text.prefix(400))")
        #expect(
            try served.rows("SELECT id, title, year, author_id FROM books WHERE id = 1") == [
                [.integer(1), .text("Dune"), .integer(1965), .integer(2)]
            ])
        // Once only.
        #expect(try Self.post(served, "/books/-/editing", "_do=undo&_token=\(encoded)", cookie: alice).status == 409)
        // An empty title would come back as NULL: no Undo is offered rather than a different row.
        #expect(try served.post("/books/-/insert", #"{"row": {"id": 3, "title": ""}}"#).status == 201)
        let empty = try Self.version(served, "/books/3")
        let gone = try Self.post(served, "/books/-/editing", "_do=delete&_row=3&_version=\(empty)", cookie: alice)
        #expect(gone.status == 303)
        #expect(gone.headers["Location"]?.contains("_undo=") == false)
        // Deleting an author deletes their books too: that cannot be undone by putting the author back.
        // A watcher of the books sees the cascade at once (the test server polls the file hourly).
        let watcher = try EventStreamClient(port: served.server.port, target: "/books?limit=10")
        #expect(watcher.status == 200)
        let author = try Self.version(served, "/authors/1")
        let cascaded = try Self.post(served, "/authors/-/editing", "_do=delete&_row=1&_version=\(author)", cookie: alice)
        #expect(cascaded.status == 303)
        #expect(cascaded.headers["Location"]?.contains("_undo=") == false)
        #expect(try served.rows("SELECT count(*) FROM books WHERE author_id = 1") == [[.integer(0)]])
        let batch = try #require(try LiveDatabaseListTests.nextBatch(watcher))
        #expect(LiveDatabaseListTests.summary(batch.data).contains("remove row-2"))
        try Self.expectIntact(served)
    }

    @Test func anEditInPlaceCarriesTheRowsVersion() throws {
        let served = try Self.server()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let form = try served.get("/books?editing=1&_edit=1", headers: [("Cookie", alice)])
        #expect(form.status == 200)
        #expect(form.text.contains(#"value="Dune""#))
        #expect(form.text.contains("Herbert"))
        let version = try Self.version(served, "/books/1")
        let saved = try Self.post(
            served, "/books/-/editing", "_do=save&_row=1&_version=\(version)&title=Dune+Messiah&year=1969&author_id=2", cookie: alice)
        #expect(saved.status == 303, "\(saved.text.prefix(400))")
        #expect(try served.rows("SELECT title, year FROM books WHERE id = 1") == [[.text("Dune Messiah"), .integer(1969)]])
        // The same form again, from the version it was opened at: 409, the row as it is now beside their values.
        let stale = try Self.post(
            served, "/books/-/editing", "_do=save&_row=1&_version=\(version)&title=Mine&year=1970&author_id=2", cookie: alice)
        #expect(stale.status == 409)
        #expect(stale.text.contains("Dune Messiah") && stale.text.contains("Mine"))
        // A delete or a move from a stale version is refused too.
        #expect(try Self.post(served, "/books/-/editing", "_do=delete&_row=1&_version=\(version)", cookie: alice).status == 409)
        #expect(try served.rows("SELECT title FROM books WHERE id = 1") == [[.text("Dune Messiah")]])
        // A constraint the edit breaks: 422 on its field, nothing written.
        let now = try Self.version(served, "/books/1")
        let checked = try Self.post(served, "/books/-/editing", "_do=save&_row=1&_version=\(now)&title=X&year=-1&author_id=2", cookie: alice)
        #expect(checked.status == 422)
        #expect(checked.text.contains("The row fails the check"))
        #expect(try served.rows("SELECT title FROM books WHERE id = 1") == [[.text("Dune Messiah")]])
        try Self.expectIntact(served)
    }

    /// A row on a later page of a paged list is changed from that page, as the person saw it there:
    /// its edit form opens, its save, delete and move reach it, and the answer goes back to that page.
    @Test func aRowOnALaterPageIsChangedFromThatPage() throws {
        var configuration = DatabaseConfiguration()
        var queue = DatabaseConfiguration.Table()
        queue.order = "position"
        queue.pageSize = 5
        configuration.tables["queue"] = queue
        let rows = (1...12).map { "(\($0), 'item \($0)', \($0 * 10))" }.joined(separator: ", ")
        let served = try DatabaseWriteTestServer(
            sql:
                "CREATE TABLE queue(id INTEGER PRIMARY KEY, name TEXT NOT NULL, position INTEGER NOT NULL UNIQUE); INSERT INTO queue VALUES \(rows);",
            configuration: configuration)
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let first = try served.get("/queue?editing=1", headers: [("Cookie", alice)])
        #expect(first.status == 200)
        #expect(!first.text.contains("item 7<"))
        // The next page's link, as the page gives it, and the list query its forms carry back.
        let next = try #require(first.text.firstMatch(of: /<a [^>]*rel="next" href="([^"]*)"/)?.output.1)
        let second = try served.get(String(next).replacingOccurrences(of: "&amp;", with: "&"), headers: [("Cookie", alice)])
        #expect(second.status == 200)
        #expect(second.text.contains("item 7<"), "\(second.text.prefix(600))")
        let back = try #require(second.text.firstMatch(of: /name="_return" value="([^"]*)"/)?.output.1)
        let listQuery = String(back).replacingOccurrences(of: "&amp;", with: "&")
        #expect(!listQuery.isEmpty)
        let encoded = try #require(listQuery.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let version = try Self.version(served, "/queue/7")
        let saved = try Self.post(
            served, "/queue/-/editing", "_do=save&_row=7&_version=\(version)&name=seventh&position=70&_return=\(encoded)", cookie: alice)
        #expect(saved.status == 303, "\(saved.text.prefix(600))")
        #expect(try served.rows("SELECT name FROM queue WHERE id = 7") == [[.text("seventh")]])
        let location = try #require(saved.headers["Location"])
        #expect(try served.get(location, headers: [("Cookie", alice)]).text.contains("seventh"))
        let moved = try Self.post(
            served, "/queue/-/editing", "_do=up&_row=8&_version=\(try Self.version(served, "/queue/8"))&_return=\(encoded)",
            cookie: alice)
        #expect(moved.status == 303, "\(moved.text.prefix(600))")
        #expect(try served.rows("SELECT id FROM queue ORDER BY position LIMIT 2 OFFSET 6") == [[.integer(8)], [.integer(7)]])
        let deleted = try Self.post(
            served, "/queue/-/editing", "_do=delete&_row=9&_version=\(try Self.version(served, "/queue/9"))&_return=\(encoded)", cookie: alice)
        #expect(deleted.status == 303, "\(deleted.text.prefix(600))")
        #expect(try served.rows("SELECT count(*) FROM queue WHERE id = 9") == [[.integer(0)]])
        try Self.expectIntact(served)
    }

    @Test func anInsertAtTheEndOrAConstraintOnItsField() throws {
        let served = try Self.server()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let page = try served.get("/authors?editing=1&_insert=0", headers: [("Cookie", alice)]).text
        #expect(page.contains("name=\"_section\""))
        let taken = try Self.post(served, "/authors/-/editing", "_do=insert&_section=0&name=Herbert", cookie: alice)
        #expect(taken.status == 422)
        #expect(taken.text.contains("already has this “name”"))
        #expect(taken.text.contains(#"value="Herbert""#))
        let check = try Self.post(served, "/books/-/editing", "_do=insert&_section=0&title=%3Cb%3EBad%3C%2Fb%3E&year=-3&author_id=1", cookie: alice)
        #expect(check.status == 422)
        #expect(check.text.contains("&lt;b&gt;Bad&lt;/b&gt;") && !check.text.contains("<b>Bad</b>"))
        let missing = try Self.post(served, "/books/-/editing", "_do=insert&_section=0&title=Ghost&year=2000&author_id=99", cookie: alice)
        #expect(missing.status == 422)
        #expect(try served.rows("SELECT count(*) FROM books") == [[.integer(2)]])
        let added = try Self.post(served, "/authors/-/editing", "_do=insert&_section=0&name=Butler", cookie: alice)
        #expect(added.status == 303)
        #expect(try served.rows("SELECT name FROM authors ORDER BY id DESC LIMIT 1") == [[.text("Butler")]])
        // A new row of an ordered table goes at the end.
        #expect(try Self.post(served, "/queue/-/editing", "_do=insert&_section=0&name=e", cookie: alice).status == 303)
        #expect(try served.rows("SELECT position FROM queue WHERE name = 'e'") == [[.integer(11)]])
        try Self.expectIntact(served)
    }

    @Test func movesRewriteAsFewPositionsAsTheyCan() throws {
        let served = try Self.server()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let page = try served.get("/queue?editing=1", headers: [("Cookie", alice)]).text
        #expect(page.contains("value=\"up\"") && page.contains("value=\"down\""))
        // No position column, no moves; the position column is not a field.
        #expect(!(try served.get("/books?editing=1", headers: [("Cookie", alice)]).text.contains("value=\"up\"")))
        #expect(!(try served.get("/queue?editing=1&_edit=1", headers: [("Cookie", alice)]).text.contains("name=\"position\"")))
        func positions() throws -> [[DatabaseValue]] { try served.rows("SELECT name, position FROM queue ORDER BY position") }
        // c down past d: after d, a free place — c alone is written.
        var version = try Self.version(served, "/queue/3")
        #expect(try Self.post(served, "/queue/-/editing", "_do=down&_row=3&_version=\(version)", cookie: alice).status == 303)
        #expect(
            try positions() == [[.text("a"), .integer(1)], [.text("b"), .integer(2)], [.text("d"), .integer(10)], [.text("c"), .integer(11)]])
        // d up past b: between a (1) and b (2) there is no room, so b steps along; c and a stay.
        version = try Self.version(served, "/queue/4")
        #expect(try Self.post(served, "/queue/-/editing", "_do=up&_row=4&_version=\(version)", cookie: alice).status == 303)
        #expect(
            try positions() == [[.text("a"), .integer(1)], [.text("d"), .integer(2)], [.text("b"), .integer(3)], [.text("c"), .integer(11)]])
        // b deleted, then put back where it was, between d and c.
        let b = try Self.version(served, "/queue/2")
        let deleted = try Self.post(served, "/queue/-/editing", "_do=delete&_row=2&_version=\(b)", cookie: alice)
        let location = try #require(deleted.headers["Location"])
        let token = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "_undo" }?.value)
        let encoded = try #require(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        #expect(try Self.post(served, "/queue/-/editing", "_do=undo&_token=\(encoded)", cookie: alice).status == 303)
        #expect(try positions().map(\.[0]) == [.text("a"), .text("d"), .text("b"), .text("c")])
        // A move from a version since changed is refused, nothing moved.
        #expect(try Self.post(served, "/queue/-/editing", "_do=up&_row=4&_version=\(version)", cookie: alice).status == 409)
        #expect(try positions().map(\.[0]) == [.text("a"), .text("d"), .text("b"), .text("c")])
        try Self.expectIntact(served)
    }

    @Test func onlyPermittedSameSiteChangesOfWritableTables() throws {
        let served = try Self.server()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let bob = try DatabaseWriteRefusalTests.signIn(served, "bob")
        let version = try Self.version(served, "/books/1")
        // Anonymous visitors and bob (who may only view) see no controls, and are refused.
        #expect(!(try served.get("/books").text.contains("editing-start")))
        #expect(!(try served.get("/books", headers: [("Cookie", bob)]).text.contains("editing-start")))
        #expect(!(try served.get("/books?editing=1", headers: [("Cookie", bob)]).text.contains("editing-controls")))
        #expect(try served.get("/books", headers: [("Cookie", alice)]).text.contains("editing-start"))
        #expect(try Self.post(served, "/books/-/editing", "_do=delete&_row=1&_version=\(version)", cookie: nil).status == 401)
        #expect(try Self.post(served, "/books/-/editing", "_do=delete&_row=1&_version=\(version)", cookie: bob).status == 403)
        // A forged cross-site post with alice's cookie.
        let forged = try Self.post(served, "/books/-/editing", "_do=delete&_row=1&_version=\(version)", cookie: alice, site: "cross-site")
        #expect(forged.status == 403)
        // A read-only table is no editable list.
        #expect(!(try served.get("/frozen", headers: [("Cookie", alice)]).text.contains("editing-start")))
        #expect(try Self.post(served, "/frozen/-/editing", "_do=delete&_row=1&_version=x", cookie: alice).status == 404)
        #expect(try served.rows("SELECT count(*) FROM books") == [[.integer(2)]])
        #expect(try served.rows("SELECT count(*) FROM frozen") == [[.integer(1)]])
        try Self.expectIntact(served)
    }
}
