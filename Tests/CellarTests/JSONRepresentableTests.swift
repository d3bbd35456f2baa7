import Cellar
import Foundation
import Showcase
import Testing

@Suite struct JSONRepresentableTests {
    /// The fast path must say what `Encodable` says: same keys, same values, hostile text included.
    @Test func aPersonWritesTheSameObjectAsItsEncodable() throws {
        let people = PeopleDirectory.make(count: 40) + PeopleDirectory.listbench(count: 14)
        for person in people {
            var json = JSONWriter()
            person.writeJSON(into: &json)
            let direct = try JSONSerialization.jsonObject(with: Data(json.takeBytes())) as? NSDictionary
            let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(person)) as? NSDictionary
            #expect(direct != nil)
            #expect(direct == encoded, "person \(person.id)")
        }
    }

    @Test func theJSONTwinUsesTheFastPathAndStaysValid() throws {
        let app = App(publicDirectory: Repository.publicDirectory)
        try Showcase.install(in: app, peopleCount: 30, listbenchCount: 30, bigCount: 10)
        let response = try app.makeRouter().respond(to: try .init(target: "/listbench.json?limit=30"))
        guard case .bytes(let bytes) = response.body else {
            Issue.record("expected a buffered body")
            return
        }
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let sections = try #require(document["sections"] as? [[String: Any]])
        let rows = try #require(sections.first?["rows"] as? [[String: Any]])
        #expect(rows.count == 30)
        let items = rows.compactMap { $0["item"] as? [String: Any] }
        #expect(items.map { $0["email"] as? String } == (1...30).map { "person\($0)@example.com" })
        #expect(items[6]["name"] as? String == "Person 7 <b>&\"'")
    }
}
