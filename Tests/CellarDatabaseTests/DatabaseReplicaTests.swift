import Foundation
import Testing

/// Two apps serving one file, as two replicas behind a proxy: the same request gets the same
/// bytes and `ETag` from either, and a cursor written by one pages on the other.
struct DatabaseReplicaTests {
    @Test(arguments: ["DELETE", "WAL"])
    func replicasAnswerTheSameBytesAndValidators(journal: String) throws {
        let file = try TemporaryDatabase(CellarFixture.sql)
        try file.writer().execute("PRAGMA journal_mode = \(journal)")
        let one = try DatabaseTestServer(file)
        let two = try DatabaseTestServer(file)
        let first = try one.get("/wines.json?sort=-price&limit=7")
        let next = try #require(first.links["next"])
        #expect(next.contains("cursor="))
        for target in ["/wines?sort=-price&limit=7", "/wines.json?sort=-price&limit=7", next, next.replacing(".json", with: "")] {
            let a = try one.get(target)
            let b = try two.get(target)
            #expect(a.status == 200 && b.status == 200, "\(target)")
            #expect(a.body == b.body, "\(target)")
            let tag = try #require(a.headers["ETag"])
            #expect(b.headers["ETag"] == tag, "\(target)")
            // One replica's validator is good on the other.
            #expect(try two.get(target, headers: [("If-None-Match", tag)]).status == 304, "\(target)")
        }

        // A write seen by both: both move, to the same new validator.
        let tag = try #require(first.headers["ETag"])
        try file.writer().execute("UPDATE wines SET name = 'Written elsewhere' WHERE id = 75")
        let a = try one.get("/wines.json?sort=-price&limit=7", headers: [("If-None-Match", tag)])
        let b = try two.get("/wines.json?sort=-price&limit=7", headers: [("If-None-Match", tag)])
        #expect(a.status == 200 && b.status == 200)
        #expect(a.headers["ETag"] != tag)
        #expect(a.headers["ETag"] == b.headers["ETag"])
        #expect(a.body == b.body)
    }
}
