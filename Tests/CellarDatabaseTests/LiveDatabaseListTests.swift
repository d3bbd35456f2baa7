import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// A watched database list follows commits made by another process: the `sqlite3` command line
/// inserts, updates and deletes rows, and the watcher receives each change as patches.
@Suite struct LiveDatabaseListTests {
    static let sql = """
        CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        INSERT INTO items VALUES (1, 'one'), (2, 'two'), (3, 'three');
        """

    /// Runs `sql` with the `sqlite3` command line, as another process writing to the file.
    static func sqlite3(_ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// The next event that carries data, waiting up to 30 s (a change is noticed within a poll interval).
    static func nextBatch(_ client: EventStreamClient) throws -> EventStreamClient.Event? {
        while let event = try client.nextEvent(timeout: .seconds(30)) {
            if !Self.isGreeting(event.data) { return event }
        }
        return nil
    }

    /// The empty batch a new watcher gets first, with the sequence it starts from.
    static func isGreeting(_ data: String) -> Bool {
        data.hasPrefix("<!-- watching from ") || data.hasSuffix("\"operations\":[]}")
    }

    /// `action target` of each `<turbo-stream>` in a batch.
    static func summary(_ data: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"<turbo-stream action="([a-z]+)" target="([^"]*)""#)
        return pattern.matches(in: data, range: NSRange(data.startIndex..., in: data)).map { match in
            (1...2).map { String(data[Range(match.range(at: $0), in: data)!]) }.joined(separator: " ")
        }
    }

    @Test func writesByTheSQLiteCommandLineReachAWatcher() throws {
        let server = try DatabaseTestServer(TemporaryDatabase(Self.sql))
        let client = try EventStreamClient(port: server.server.port, target: "/items?limit=10")
        #expect(client.status == 200)

        try Self.sqlite3(server.database.path, "INSERT INTO items VALUES (4, 'four');")
        let inserted = try #require(try Self.nextBatch(client))
        // A row more: the pager's count changes too.
        #expect(Self.summary(inserted.data) == ["after row-3", "replace list-pager"])
        #expect(inserted.data.contains("four"))

        try Self.sqlite3(server.database.path, "UPDATE items SET name = 'TWO' WHERE id = 2;")
        let updated = try #require(try Self.nextBatch(client))
        #expect(Self.summary(updated.data) == ["replace row-2"])
        #expect(updated.data.contains("TWO"))

        try Self.sqlite3(server.database.path, "DELETE FROM items WHERE id = 1;")
        let deleted = try #require(try Self.nextBatch(client))
        #expect(Self.summary(deleted.data) == ["remove row-1", "replace list-pager"])
        #expect((Int(deleted.lastEventID) ?? 0) > (Int(updated.lastEventID) ?? .max))
    }

    @Test func jsonWatchersOfADatabaseListGetOperations() throws {
        let server = try DatabaseTestServer(TemporaryDatabase(Self.sql))
        let client = try EventStreamClient(port: server.server.port, target: "/items.json?sort=-id")
        try Self.sqlite3(server.database.path, "INSERT INTO items VALUES (9, 'nine');")
        let event = try #require(try Self.nextBatch(client))
        let batch = try JSON.parse(Array(event.data.utf8))
        let operation = try #require(batch["operations"]?.array.first)
        #expect(operation["op"]?.string == "insert")
        #expect(operation["before"]?.string == "3")
        #expect(operation["row"]?["id"]?.string == "9")
    }

    /// A grouped list's sections are keyed by their values: a row inserted into a group targets
    /// that group's section by its identifier, on the page and in JSON.
    @Test func aGroupedListsSectionsAreKeyedByTheirValues() throws {
        let database = try TemporaryDatabase(
            """
            CREATE TABLE wines(id INTEGER PRIMARY KEY, name TEXT NOT NULL, colour TEXT);
            INSERT INTO wines VALUES (1, 'a', 'red'), (2, 'b', 'red'), (3, 'c', 'white');
            """)
        let configuration = try DatabaseConfiguration(yaml: "tables:\n  wines:\n    sections: colour\n", file: "wines.yaml")
        let server = try DatabaseTestServer(database, configuration: configuration)
        // The window from the third row holds one section, "white", number 0 on its page.
        let client = try EventStreamClient(port: server.server.port, target: "/wines?offset=2")
        let json = try EventStreamClient(port: server.server.port, target: "/wines.json?offset=2")

        try Self.sqlite3(server.database.path, "INSERT INTO wines VALUES (4, 'd', 'white');")
        let inserted = try #require(try Self.nextBatch(client))
        #expect(Self.summary(inserted.data).first == "after row-3")
        let operations = try JSON.parse(Array(try #require(try Self.nextBatch(json)).data.utf8))["operations"]?.array ?? []
        let insert = try #require(operations.first { $0["op"]?.string == "insert" })
        #expect(insert["section"]?.integer == 0)
        #expect(insert["sectionId"]?.string == "t:white")

        // A section's footer counts its group: the update targets the section by its identifier.
        #expect(inserted.data.contains(#"<turbo-stream action="update" target="section-t%3Awhite-footer">"#))
    }
}
