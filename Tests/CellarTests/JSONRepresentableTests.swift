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

    /// Integers are written straight into the buffer: every width, both signs and both ends of
    /// `Int`, as `String(_:)` spells them.
    @Test func integersAreWrittenAsSwiftSpellsThem() {
        var values = [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min, Int.min + 1]
        var power = 1
        for _ in 1...18 {
            power *= 10
            values += [power - 1, power, -power, -(power - 1)]
        }
        for value in values {
            var json = JSONWriter()
            json.raw("[")
            json.number(value)
            json.raw("]")
            #expect(String(decoding: json.takeBytes(), as: UTF8.self) == "[\(value)]")
        }
    }

    /// The string escaper reads sixteen bytes at a time, then eight, and finishes short texts and
    /// the last bytes of longer ones another way: every ASCII byte (and U+2028, U+2029) at every
    /// position of texts of 1 to 40 bytes must parse back to the text, with no raw `< > & '` or
    /// control left.
    @Test func everyASCIIByteAtEveryPositionRoundTrips() throws {
        for length in 1...40 {
            for position in 0..<length {
                for scalar in (0...0x7F).map({ Unicode.Scalar(UInt8($0)) }) + ["\u{2028}", "\u{2029}", "é", "\u{2027}"] {
                    var scalars = Array(repeating: Unicode.Scalar("x"), count: length)
                    scalars[position] = scalar
                    var text = ""
                    text.unicodeScalars.append(contentsOf: scalars)
                    var json = JSONWriter()
                    json.string(text)
                    let bytes = json.takeBytes()
                    let parsed = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String
                    let unsafe = bytes.dropFirst().dropLast().contains { $0 < 0x20 || [0x3C, 0x3E, 0x26, 0x27].contains($0) }
                    let lineSeparator = String(decoding: bytes, as: UTF8.self).contains { $0 == "\u{2028}" || $0 == "\u{2029}" }
                    if parsed != text || unsafe || lineSeparator {
                        Issue.record("U+\(String(scalar.value, radix: 16)) at \(position) of \(length): \(String(decoding: bytes, as: UTF8.self))")
                        return
                    }
                }
            }
        }
    }

    @Test func aLinkIsItsBaseEscapedAndItsIdentifierPercentEncoded() throws {
        var json = JSONWriter()
        json.link(base: "/wine <list> \"&\"", identifier: "a/b c?é")
        let bytes = json.takeBytes()
        #expect(String(decoding: bytes, as: UTF8.self) == #""/wine \u003clist\u003e \"\u0026\"/a%2Fb%20c%3F%C3%A9""#)
        #expect(try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String == "/wine <list> \"&\"/a%2Fb%20c%3F%C3%A9")
    }

    @Test func theJSONTwinUsesTheFastPathAndStaysValid() throws {
        let app = App(publicDirectory: Repository.publicDirectory)
        try Showcase.install(in: app, peopleCount: 30, listbenchCount: 30, bigCount: 10)
        let response = try app.makeRouter().respond(to: try .init(target: "/listbench.json?limit=30"))
        guard let bytes = response.body.bufferedBytes else {
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
