import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

@testable import CellarDatabase

/// The schema's forms and editing mode over a PostgreSQL table, as over SQLite's; and a change
/// through Cellar reaching watchers at once in its own process, and on another replica through
/// the change log's NOTIFY.
extension PostgresWriteTests {
    @Test func theSchemasFormsAddAndEditRows() throws {
        let served = try PostgresWriteTestServer.fresh()
        let alice = try served.signIn("alice")
        let page = try served.get("/books/-/new", headers: [("Cookie", alice), ("Accept", "text/html")])
        #expect(page.status == 200, "\(page.text.prefix(500))")
        #expect(page.text.contains("name=\"title\"") && page.text.contains("Herbert"))
        #expect(!page.text.contains("name=\"shout\""), "a generated column is the database's")
        #expect(!page.text.contains("name=\"cover\""), "bytes are not typed into a form")
        let saved = try served.postForm("/books/-/new", "title=The+Lathe&year=1971&author_id=1&isbn=&notes=", cookie: alice)
        #expect(saved.status == 303, "\(saved.text.prefix(500))")
        #expect(saved.headers["Location"] == "/books/2")
        #expect(
            try served.rows("SELECT title, year, author_id, isbn, notes FROM books WHERE id = 2") == [
                [.text("The Lathe"), .integer(1971), .integer(1), .null, .text("none")]
            ])
        // A CHECK the row breaks: 422 on its field, the values kept, nothing written.
        let refused = try served.postForm("/books/-/new", "title=Negative&year=-3", cookie: alice)
        #expect(refused.status == 422)
        #expect(refused.text.contains("books_year_check") && refused.text.contains("Negative"))
        // An edit carries the version: saved once, refused from the old version after.
        let bare = try served.get("/books/1/-/edit", headers: [("Cookie", alice), ("Accept", "text/html")])
        let target = try #require(bare.headers["Location"])
        let first = try served.postForm(target, "title=Changed&year=1965&author_id=2&isbn=&notes=none", cookie: alice)
        #expect(first.status == 303, "\(first.text.prefix(500))")
        let second = try served.postForm(target, "title=Mine&year=1965&author_id=2&isbn=&notes=none", cookie: alice)
        #expect(second.status == 409)
        #expect(second.text.contains("it is now “Changed”"))
        #expect(try served.rows("SELECT title FROM books ORDER BY id") == [[.text("Changed")], [.text("The Lathe")]])
    }

    @Test func identityColumnsAreLeftToTheDatabase() throws {
        let served = try PostgresWriteTestServer.fresh()
        let alice = try served.signIn("alice")
        // GENERATED ALWAYS: not in the form, refused in the API.
        let always = try served.get("/notes/-/new", headers: [("Cookie", alice), ("Accept", "text/html")])
        #expect(always.status == 200)
        #expect(!always.text.contains("name=\"id\""))
        #expect(try served.postForm("/notes/-/new", "body=first", cookie: alice).status == 303)
        #expect(try served.post("/notes/-/insert", #"{"row": {"id": 5, "body": "mine"}}"#).status == 400)
        #expect(try served.rows("SELECT id, body FROM notes") == [[.integer(1), .text("first")]])
        // BY DEFAULT: a field that may stay empty, the identity filling it.
        let byDefault = try served.get("/labels/-/new", headers: [("Cookie", alice), ("Accept", "text/html")])
        #expect(byDefault.text.contains("name=\"id\"") && byDefault.text.contains("the identity’s next value"))
        #expect(try served.postForm("/labels/-/new", "id=&name=red", cookie: alice).status == 303)
        #expect(try served.post("/labels/-/insert", #"{"row": {"id": 7, "name": "blue"}}"#).status == 201)
        #expect(try served.rows("SELECT id, name FROM labels ORDER BY id") == [[.integer(1), .text("red")], [.integer(7), .text("blue")]])
    }

    @Test func editingModeDeletesWithUndoEditsInsertsAndMoves() throws {
        let served = try PostgresWriteTestServer.fresh()
        let alice = try served.signIn("alice")
        // Delete, then Undo: the row back under its key.
        let version = try served.version("/authors/1")
        let deleted = try served.postForm("/authors/-/editing", "_do=delete&_row=1&_version=\(version)", cookie: alice)
        #expect(deleted.status == 303, "\(deleted.text.prefix(400))")
        let location = try #require(deleted.headers["Location"])
        let token = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "_undo" }?.value)
        let encoded = try #require(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        #expect(try served.postForm("/authors/-/editing", "_do=undo&_token=\(encoded)", cookie: alice).status == 303)
        #expect(try served.rows("SELECT id, name FROM authors ORDER BY id") == [[.integer(1), .text("Le Guin")], [.integer(2), .text("Herbert")]])
        // A delete that cascaded offers no Undo.
        let book = try served.version("/books/1")
        let cascaded = try served.postForm("/books/-/editing", "_do=delete&_row=1&_version=\(book)", cookie: alice)
        #expect(cascaded.status == 303)
        #expect(cascaded.headers["Location"]?.contains("_undo=") == false)
        // Edit in place, then the same form again from its old version: 409.
        let now = try served.version("/authors/2")
        #expect(try served.postForm("/authors/-/editing", "_do=save&_row=2&_version=\(now)&name=Frank+Herbert", cookie: alice).status == 303)
        #expect(try served.postForm("/authors/-/editing", "_do=save&_row=2&_version=\(now)&name=Mine", cookie: alice).status == 409)
        // An insert breaking UNIQUE: 422, in the row.
        #expect(try served.postForm("/authors/-/editing", "_do=insert&_section=0&id=3&name=Le+Guin", cookie: alice).status == 422)
        #expect(try served.rows("SELECT name FROM authors ORDER BY id") == [[.text("Le Guin")], [.text("Frank Herbert")]])
        // Moves by the position column, as few rows rewritten as can be.
        func positions() throws -> [[DatabaseValue]] { try served.rows("SELECT name, position FROM queue ORDER BY position") }
        var moved = try served.version("/queue/3")
        #expect(try served.postForm("/queue/-/editing", "_do=down&_row=3&_version=\(moved)", cookie: alice).status == 303)
        #expect(
            try positions() == [[.text("a"), .integer(1)], [.text("b"), .integer(2)], [.text("d"), .integer(10)], [.text("c"), .integer(11)]])
        moved = try served.version("/queue/4")
        #expect(try served.postForm("/queue/-/editing", "_do=up&_row=4&_version=\(moved)", cookie: alice).status == 303)
        #expect(try positions() == [[.text("a"), .integer(1)], [.text("d"), .integer(2)], [.text("b"), .integer(3)], [.text("c"), .integer(11)]])
        #expect(try served.postForm("/queue/-/editing", "_do=up&_row=4&_version=\(moved)", cookie: alice).status == 409)
        // A new row goes at the end.
        #expect(try served.postForm("/queue/-/editing", "_do=insert&_section=0&id=5&name=e", cookie: alice).status == 303)
        #expect(try served.rows("SELECT position FROM queue WHERE id = 5") == [[.integer(12)]])
    }

    @Test func aChangeReachesWatchersHereAtOnceAndOnAnotherReplica() throws {
        let served = try PostgresWriteTestServer.fresh()
        _ = try PostgresChangeLog.install(on: served.admin, deadline: .seconds(60))
        let replica = try PostgresWriteTestServer(sharing: served)
        let here = try EventStreamClient(port: served.server.port, target: "/authors?limit=10")
        let there = try EventStreamClient(port: replica.server.port, target: "/authors?limit=10")
        #expect(here.status == 200 && there.status == 200)
        // Let both streams start (their greetings) before the write.
        _ = try here.nextEvent(timeout: .seconds(30))
        _ = try there.nextEvent(timeout: .seconds(30))
        #expect(try served.post("/authors/-/insert", #"{"row": {"id": 7, "name": "Gibson"}}"#).status == 201)
        let local = try #require(try LiveDatabaseListTests.nextBatch(here))
        #expect(local.data.contains("Gibson"), "\(local.data.prefix(400))")
        let remote = try #require(try LiveDatabaseListTests.nextBatch(there))
        #expect(remote.data.contains("Gibson") || remote.data.contains(#"action="refresh""#), "\(remote.data.prefix(400))")
    }
}
