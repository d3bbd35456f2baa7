import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// Moves in a list grouped in sections (YAML `sections:`) and ordered by a position column: within
/// a section, and into another, which writes that section's value into the row's grouping column
/// (UIKit's model); where the grouping column is part of the key, a row stays in its section.
extension DatabaseEditingModeTests {
    static let groupedSQL = """
        CREATE TABLE tasks(id INTEGER PRIMARY KEY, name TEXT NOT NULL, shelf TEXT NOT NULL, position INTEGER NOT NULL UNIQUE);
        INSERT INTO tasks VALUES (1, 'a', 'x', 1), (2, 'b', 'x', 2), (3, 'c', 'y', 3), (4, 'd', 'y', 4);
        CREATE TABLE slots(shelf TEXT NOT NULL, n INTEGER NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (shelf, n));
        INSERT INTO slots VALUES ('x', 1, 1), ('x', 2, 2), ('y', 1, 3);
        """

    static func groupedServer() throws -> DatabaseWriteTestServer {
        var configuration = DatabaseConfiguration()
        for name in ["tasks", "slots"] {
            var table = DatabaseConfiguration.Table()
            table.order = "position"
            table.sections = "shelf"
            configuration.tables[name] = table
        }
        return try DatabaseWriteTestServer(sql: groupedSQL, configuration: configuration)
    }

    @Test func aGroupedListMovesRowsWithinAndAcrossSections() throws {
        let served = try Self.groupedServer()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let page = try served.get("/tasks?editing=1", headers: [("Cookie", alice)]).text
        #expect(page.contains("value=\"up\"") && page.contains("value=\"down\""), "\(page.prefix(400))")
        func shelves() throws -> [[DatabaseValue]] { try served.rows("SELECT shelf, name FROM tasks ORDER BY shelf, position") }
        func move(_ body: String, row: String) throws -> TestHTTPResponse {
            let version = try Self.version(served, "/tasks/\(row)")
            return try Self.post(served, "/tasks/-/editing", "_row=\(row)&_version=\(version)&" + body, cookie: alice)
        }
        // Within a section: a below b.
        #expect(try move("_do=down", row: "1").status == 303)
        #expect(try shelves() == [[.text("x"), .text("b")], [.text("x"), .text("a")], [.text("y"), .text("c")], [.text("y"), .text("d")]])
        // Down from the end of x: the first row of y, its shelf now y.
        #expect(try move("_do=down", row: "1").status == 303)
        #expect(try shelves() == [[.text("x"), .text("b")], [.text("y"), .text("a")], [.text("y"), .text("c")], [.text("y"), .text("d")]])
        // Dragged beside a row of another section: d before b, on shelf x.
        #expect(try move("_do=move&_before=2", row: "4").status == 303)
        #expect(try shelves() == [[.text("x"), .text("d")], [.text("x"), .text("b")], [.text("y"), .text("a")], [.text("y"), .text("c")]])
        // Up from the top of the list: nothing to do.
        #expect(try move("_do=up", row: "4").status == 303)
        #expect(try shelves().map(\.[1]) == [.text("d"), .text("b"), .text("a"), .text("c")])
        // A stale version is refused, nothing moved.
        let stale = try Self.version(served, "/tasks/3")
        // c up before a: between b (2, on the other shelf) and a (3) there is no room, so a steps
        // into the place c leaves.
        #expect(try move("_do=up", row: "3").status == 303)
        #expect(try Self.post(served, "/tasks/-/editing", "_do=down&_row=3&_version=\(stale)", cookie: alice).status == 409)
        #expect(try shelves() == [[.text("x"), .text("d")], [.text("x"), .text("b")], [.text("y"), .text("c")], [.text("y"), .text("a")]])
        try Self.expectIntact(served)
    }

    @Test func aRowWhoseSectionIsPartOfItsKeyStaysInItsSection() throws {
        let served = try Self.groupedServer()
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        func order() throws -> [[DatabaseValue]] { try served.rows("SELECT shelf, n FROM slots ORDER BY shelf, position") }
        let before = try order()
        // The last row of x cannot go down into y: it has no Move down, and asking does nothing.
        var version = try Self.version(served, "/slots/x,2")
        #expect(try Self.post(served, "/slots/-/editing", "_do=down&_row=x,2&_version=\(version)", cookie: alice).status == 303)
        #expect(try order() == before)
        // Dropped before y's row, x's first row goes to the end of its own section instead.
        version = try Self.version(served, "/slots/x,1")
        #expect(try Self.post(served, "/slots/-/editing", "_do=move&_row=x,1&_before=y,1&_version=\(version)", cookie: alice).status == 303)
        #expect(try order() == [[.text("x"), .integer(2)], [.text("x"), .integer(1)], [.text("y"), .integer(1)]])
        try Self.expectIntact(served)
    }
}
