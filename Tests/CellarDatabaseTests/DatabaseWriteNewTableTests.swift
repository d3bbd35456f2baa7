import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// A table created while a `--writable` database is served is written as one there at start is:
/// its JSON write API, its schema's forms and editing mode, with permissions and versions; a table
/// that cannot be written (no key) says why, and without `--writable` nothing is.
@Suite struct DatabaseWriteNewTableTests {
    @Test func aTableCreatedWhileServingTakesWritesLikeOneThereAtStart() throws {
        let served = try DatabaseWriteTestServer()
        try served.database.writer().execute(
            """
            CREATE TABLE shelves(id INTEGER PRIMARY KEY, name TEXT NOT NULL, book_id INTEGER REFERENCES books(id));
            INSERT INTO shelves VALUES (1, 'kitchen', 1);
            """)
        // The first request finds the new table; its write API answers as any table's does.
        #expect(try served.get("/shelves").status == 200)
        let inserted = try served.post("/shelves/-/insert", #"{"row": {"name": "hall", "book_id": 1}, "return": true}"#)
        #expect(inserted.status == 201, "\(inserted.text)")
        #expect(try served.rows("SELECT id, name FROM shelves ORDER BY id") == [[.integer(1), .text("kitchen")], [.integer(2), .text("hall")]])
        let refused = try served.post("/shelves/-/insert", #"{"row": {"name": null}}"#)
        #expect(refused.status == 400 || refused.status == 422, "\(refused.text)")
        #expect(try served.post("/shelves/-/insert", #"{"row": {"name": "x"}}"#, token: served.viewToken).status == 403)
        #expect(try served.post("/shelves/-/insert", #"{"row": {"name": "x"}}"#, token: nil).status == 401)
        let updated = try served.post("/shelves/1/-/update", #"{"update": {"name": "study"}}"#)
        #expect(updated.status == 200, "\(updated.text)")
        #expect(try served.rows("SELECT name FROM shelves WHERE id = 1") == [[.text("study")]])

        // Its schema's form, with the foreign key a choice of the books' labels.
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let form = try DatabaseWriteFormTests.send(served, "GET", "/shelves/-/new", cookie: alice)
        #expect(form.status == 200, "\(form.text.prefix(300))")
        #expect(form.text.contains("name=\"name\"") && form.text.contains("Dune"))
        let saved = try DatabaseWriteFormTests.send(served, "POST", "/shelves/-/new", cookie: alice, form: "name=attic&book_id=1")
        #expect(saved.status == 303, "\(saved.text.prefix(300))")
        #expect(try served.rows("SELECT count(*) FROM shelves") == [[.integer(3)]])

        // Editing mode: its Edit button, and a delete checked against the row's version.
        let list = try DatabaseWriteFormTests.send(served, "GET", "/shelves", cookie: alice)
        #expect(list.text.contains("href=\"/shelves?editing=1\""))
        let version = try DatabaseEditingModeTests.version(served, "/shelves/3")
        let deleted = try DatabaseEditingModeTests.post(served, "/shelves/-/editing", "_do=delete&_row=3&_version=\(version)", cookie: alice)
        #expect(deleted.status == 303, "\(deleted.text.prefix(300))")
        #expect(try served.rows("SELECT count(*) FROM shelves") == [[.integer(2)]])

        #expect(try served.integrityCheck() == [[.text("ok")]])
    }

    @Test func withoutWritableATableCreatedWhileServingIsNotWritten() throws {
        let served = try DatabaseWriteTestServer(writable: false)
        try served.database.writer().execute("CREATE TABLE shelves(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO shelves VALUES (1, 'a')")
        #expect(try served.get("/shelves").status == 200)
        let refused = try served.post("/shelves/-/insert", #"{"row": {"name": "b"}}"#)
        #expect(refused.status == 403, "\(refused.text)")
        #expect(try served.rows("SELECT count(*) FROM shelves") == [[.integer(1)]])
        #expect(try served.get("/shelves/-/new").status == 404)
    }
}
