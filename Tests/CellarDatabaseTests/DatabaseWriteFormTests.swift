import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// The forms a writable table gets from its schema, for browsers without JavaScript: a new row
/// and an edited one, each a 303 to the row once saved, a constraint a 422 on its field, an edit
/// made from an old version refused with the row as it is now.
@Suite struct DatabaseWriteFormTests {
    static func send(
        _ served: DatabaseWriteTestServer, _ method: String, _ target: String, cookie: String?, form: String = ""
    ) throws -> TestHTTPResponse {
        var headers = [("Accept", "text/html"), ("Sec-Fetch-Site", "same-origin")]
        if let cookie { headers.append(("Cookie", cookie)) }
        if method == "POST" { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        return try TestHTTPClient.send(method, target, port: served.server.port, headers: headers, body: Array(form.utf8), timeout: .seconds(60))
    }

    @Test func aNewRowFromTheSchemasForm() throws {
        let served = try DatabaseWriteTestServer()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let page = try Self.send(served, "GET", "/books/-/new", cookie: alice)
        #expect(page.status == 200, "\(page.text.prefix(500))")
        #expect(page.text.contains("name=\"title\""))
        #expect(page.text.contains("Le Guin") && page.text.contains("Herbert"))
        #expect(page.text.contains("Default: &#39;none&#39;") || page.text.contains("Default: 'none'"))
        // Generated and rowid-alias columns are the database's.
        #expect(!page.text.contains("name=\"shout\""))
        #expect(!page.text.contains("name=\"id\""))
        let saved = try Self.send(served, "POST", "/books/-/new", cookie: alice, form: "title=The+Lathe&year=1971&author_id=1&isbn=&notes=")
        #expect(saved.status == 303, "\(saved.text.prefix(500))")
        #expect(saved.headers["Location"] == "/books/2")
        #expect(
            try served.rows("SELECT title, year, author_id, isbn, notes FROM books WHERE id = 2") == [
                [.text("The Lathe"), .integer(1971), .integer(1), .null, .text("none")]
            ])
        // A CHECK the row breaks: 422 on its field, the values kept.
        let refused = try Self.send(served, "POST", "/books/-/new", cookie: alice, form: "title=Negative&year=-3")
        #expect(refused.status == 422)
        #expect(refused.text.contains("The row fails the check “year &gt; 0”"))
        #expect(refused.text.contains("Negative"))
        #expect(try served.rows("SELECT count(*) FROM books") == [[.integer(2)]])
    }

    @Test func anEditFromAnOldVersionIsRefused() throws {
        let served = try DatabaseWriteTestServer()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let bare = try Self.send(served, "GET", "/books/1/-/edit", cookie: alice)
        #expect(bare.status == 303)
        let target = try #require(bare.headers["Location"])
        #expect(target.hasPrefix("/books/1/-/edit?version="))
        let page = try Self.send(served, "GET", target, cookie: alice)
        #expect(page.status == 200)
        #expect(page.text.contains("value=\"Dune\""))
        let first = try Self.send(served, "POST", target, cookie: alice, form: "title=Changed&year=1965&author_id=2&isbn=&notes=none")
        #expect(first.status == 303, "\(first.text.prefix(500))")
        #expect(first.headers["Location"] == "/books/1")
        // The same form, saved again from the version it was opened at.
        let second = try Self.send(served, "POST", target, cookie: alice, form: "title=Mine&year=1965&author_id=2&isbn=&notes=none")
        #expect(second.status == 409)
        #expect(second.text.contains("it is now “Changed”"))
        #expect(second.text.contains("Mine"))
        #expect(try served.rows("SELECT title FROM books WHERE id = 1") == [[.text("Changed")]])
        // The form shown again posts with the row's new version: saving again replaces it knowingly.
        let start = try #require(second.text.range(of: "action=\"/books/1/-/edit?version="))
        let again = "/books/1/-/edit?version=" + String(second.text[start.upperBound...].prefix { $0 != "\"" })
        #expect(again != target)
        let replaced = try Self.send(served, "POST", again, cookie: alice, form: "title=Mine&year=1965&author_id=2&isbn=&notes=none")
        #expect(replaced.status == 303, "\(replaced.text.prefix(500))")
        #expect(try served.rows("SELECT title FROM books WHERE id = 1") == [[.text("Mine")]])
        #expect(try served.integrityCheck() == [[.text("ok")]])
    }

    @Test func theRowPagesDeleteButtonAnswersPages() throws {
        let served = try DatabaseWriteTestServer()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let bob = try DatabaseWriteRefusalTests.signIn(served, "bob")
        let tag = try #require(try served.get("/books/1").headers["ETag"])
        let version = String(tag.dropFirst().dropLast())
        // The row page's Delete is marked destructive (red, as a row's Delete in editing mode); Edit is not.
        let page = try Self.send(served, "GET", "/books/1", cookie: alice).text
        #expect(page.contains(#"<button class="button button-destructive" type="submit">Delete</button>"#), "\(page)")
        #expect(page.contains(#"<a class="button" href="/books/1/-/edit?version="#))
        // bob may not delete: a page saying so, not the JSON API's shape.
        let refused = try Self.send(served, "POST", "/books/1/-/delete?version=\(version)", cookie: bob)
        #expect(refused.status == 403)
        #expect(refused.headers["Content-Type"]?.hasPrefix("text/html") == true)
        #expect(!refused.text.contains("\"ok\":false"))
        // From a page that showed another version: 409, as a page, nothing deleted.
        let stale = try Self.send(served, "POST", "/books/1/-/delete?version=0000000000000000", cookie: alice)
        #expect(stale.status == 409)
        #expect(stale.headers["Content-Type"]?.hasPrefix("text/html") == true)
        #expect(stale.text.contains("Someone else changed this row"))
        #expect(try served.rows("SELECT count(*) FROM books WHERE id = 1") == [[.integer(1)]])
        // A JSON client still reads the API's shape.
        let json = try served.post("/books/1/-/delete", "", headers: [("If-Match", "\"0000000000000000\"")])
        #expect(json.status == 412)
        #expect(json.errors.contains("changed"))
        // Its editions refer to it: a 422 page, nothing deleted.
        let referenced = try Self.send(served, "POST", "/books/1/-/delete?version=\(version)", cookie: alice)
        #expect(referenced.status == 422)
        #expect(referenced.headers["Content-Type"]?.hasPrefix("text/html") == true)
        #expect(try served.rows("SELECT count(*) FROM books WHERE id = 1") == [[.integer(1)]])
        let author = try #require(try served.get("/authors/1").headers["ETag"]).dropFirst().dropLast()
        let deleted = try Self.send(served, "POST", "/authors/1/-/delete?version=\(author)", cookie: alice)
        #expect(deleted.status == 303)
        #expect(deleted.headers["Location"] == "/authors")
        #expect(try served.rows("SELECT count(*) FROM authors WHERE id = 1") == [[.integer(0)]])
        #expect(try served.integrityCheck() == [[.text("ok")]])
    }

    @Test func formsNeedTheirPermission() throws {
        let served = try DatabaseWriteTestServer()
        let anonymous = try Self.send(served, "GET", "/books/-/new", cookie: nil)
        #expect(anonymous.status == 303)
        #expect(anonymous.headers["Location"]?.hasPrefix("/-/signin") == true)
        let bob = try DatabaseWriteRefusalTests.signIn(served, "bob")
        #expect(try Self.send(served, "GET", "/books/-/new", cookie: bob).status == 403)
        #expect(try Self.send(served, "POST", "/books/-/new", cookie: bob, form: "title=x").status == 403)
        #expect(try Self.send(served, "POST", "/books/1/-/edit?version=x", cookie: bob, form: "title=x").status == 403)
        // A read-only table has no forms.
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        #expect(try Self.send(served, "GET", "/frozen/-/new", cookie: alice).status == 404)
        #expect(try served.rows("SELECT count(*) FROM books") == [[.integer(1)]])
    }

    @Test func theRowPageLinksWhatTheViewerMayDo() throws {
        let served = try DatabaseWriteTestServer()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let page = try Self.send(served, "GET", "/books/1", cookie: alice)
        let version = try #require(page.headers["ETag"]).replacing("\"", with: "")
        #expect(page.text.contains("href=\"/books/1/-/edit?version=\(version)\""))
        #expect(page.text.contains("action=\"/books/2/-/delete") == false)
        #expect(page.text.contains("<form method=\"post\" action=\"/books/1/-/delete?version=\(version)\""))
        let bob = try DatabaseWriteRefusalTests.signIn(served, "bob")
        #expect(!(try Self.send(served, "GET", "/books/1", cookie: bob).text.contains("-/edit")))
        #expect(!(try Self.send(served, "GET", "/books/1", cookie: nil).text.contains("-/delete")))
        // The Delete button: a form's POST, 303 back to the list; from an old version, refused.
        #expect(try Self.send(served, "POST", "/tags/x~7Ey/-/delete?version=stale", cookie: alice).status == 409)
        let tag = try Self.send(served, "GET", "/tags/x~y", cookie: alice)
        let tagVersion = try #require(tag.headers["ETag"]).replacing("\"", with: "")
        let deleted = try Self.send(served, "POST", "/tags/x~7Ey/-/delete?version=\(tagVersion)", cookie: alice)
        #expect(deleted.status == 303)
        #expect(deleted.headers["Location"] == "/tags")
        #expect(try served.rows("SELECT name FROM tags") == [[.text("a,b")]])
    }
}
