import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// A watched list's facets follow writes by another process: their counts are replaced in place
/// (`#list-live-header` on the page, a `members` operation in JSON), apart from the rows' patches.
extension LiveDatabaseListTests {
    static let colors = """
        CREATE TABLE wines(id INTEGER PRIMARY KEY, name TEXT NOT NULL, color TEXT);
        INSERT INTO wines VALUES (1, 'one', 'red'), (2, 'two', 'white'), (3, 'three', 'red'), (4, 'four', NULL);
        """

    /// Each value's count as the facet's HTML writes it: `red 2`, `NULL 1`.
    static func facetCounts(_ html: String) -> [String] {
        html.matches(
            of: /<li[^>]*>(?:<a [^>]*>)?(.*?)(?: <span class="visually-hidden">[^<]*<\/span>)?(?:<\/a>)? <span class="count">([0-9,]+)<\/span><\/li>/
        )
        .map { match in
            let value = match.output.1.replacing(/<[^>]*>/, with: "")
            return "\(value) \(match.output.2)"
        }
    }

    /// The batches from `client` until one replaces the facets, which is returned.
    static func nextFacetBatch(_ client: EventStreamClient, marker: String) throws -> EventStreamClient.Event? {
        while let event = try nextBatch(client) {
            if event.data.contains(marker) { return event }
        }
        return nil
    }

    @Test func aWriteByAnotherConnectionPatchesAWatchedPagesFacetCounts() throws {
        let server = try DatabaseTestServer(TemporaryDatabase(Self.colors))
        let page = try server.get("/wines?facet=color&limit=10").text
        #expect(page.contains("<section class=\"facets\" id=\"list-live-header\" aria-label=\"Facets\">"))
        #expect(Self.facetCounts(page) == ["red 2", "NULL 1", "white 1"])
        let client = try EventStreamClient(port: server.server.port, target: "/wines?facet=color&limit=10")
        #expect(client.status == 200)

        // A new red wine: its row is inserted, the pager counts it, and the facet's count moves.
        try Self.sqlite3(server.database.path, "INSERT INTO wines VALUES (5, 'five', 'red');")
        let batch = try #require(try Self.nextFacetBatch(client, marker: "target=\"list-live-header\""))
        #expect(Self.summary(batch.data).contains("after row-4"))
        #expect(Self.summary(batch.data).contains("replace list-live-header"))
        #expect(Self.facetCounts(batch.data) == ["red 3", "NULL 1", "white 1"])

        // More writes: however they are coalesced (at most one facet patch every 2 s), the last
        // facet patch has the counts GROUP BY gives once the writes are done.
        try Self.sqlite3(server.database.path, "UPDATE wines SET color = 'white' WHERE id IN (1, 3);")
        try Self.sqlite3(server.database.path, "UPDATE wines SET color = 'rosé' WHERE id = 4;")
        let expected = try server.reference("SELECT coalesce(color, 'NULL'), count(*) FROM wines GROUP BY color ORDER BY 2 DESC, color")
            .map { "\($0[0].identifier) \($0[1].identifier)" }
        #expect(expected == ["white 3", "red 1", "rosé 1"])
        var last: [String] = []
        while last != expected, let event = try Self.nextFacetBatch(client, marker: "target=\"list-live-header\"") {
            last = Self.facetCounts(event.data)
        }
        #expect(last == expected)

        // A write that changes no count patches the row alone.
        try Self.sqlite3(server.database.path, "UPDATE wines SET name = 'FIVE' WHERE id = 5;")
        let renamed = try #require(try Self.nextBatch(client))
        #expect(Self.summary(renamed.data) == ["replace row-5"])
    }

    @Test func aWatchedJSONListGetsItsFacetsAsAMembersOperation() throws {
        let server = try DatabaseTestServer(TemporaryDatabase(Self.colors))
        let client = try EventStreamClient(port: server.server.port, target: "/wines.json?facet=color")
        try Self.sqlite3(server.database.path, "INSERT INTO wines VALUES (5, 'five', NULL);")
        let event = try #require(try Self.nextFacetBatch(client, marker: "\"op\":\"members\""))
        let batch = try JSON.parse(Array(event.data.utf8))
        let operations = try #require(batch["operations"]?.array)
        #expect(operations.first?["op"]?.string == "insert")
        let members = try #require(operations.first { $0["op"]?.string == "members" })
        let values = try #require(members["facets"]?["color"]?["values"]?.array)
        #expect(values.map { "\($0["value"]?.string ?? "NULL") \($0["count"]?.integer ?? -1)" } == ["NULL 2", "red 2", "white 1"])
    }
}
