import Showcase
import TableKit
import Testing

/// `Person` writes its prototype values itself (the listbench rows' hot path): every key must come
/// out as its `prototypeValue(forKey:)` would be written, markup in the data escaped.
@Suite struct PersonPrototypeDataTests {
    @Test(arguments: ["name", "role", "email", "bio", "id", "unknown", ""])
    func writesWhatItsValueWrites(_ key: String) throws {
        let person = Person(
            id: 7, name: "Person 7 <b>&\"'", role: .engineer, email: "person7@example.com",
            bio: "likes <tags> & \"quotes\" and 'apostrophes'")
        // A template with the one slot, so the default writer (through the value) is the reference.
        struct ThroughValue: PrototypeData {
            let person: Person
            func prototypeValue(forKey key: String) -> PrototypeValue { person.prototypeValue(forKey: key) }
        }
        let template = try PrototypeTemplate("[{{\(key.isEmpty ? "x" : key)}}]")
        var direct = HTMLWriter()
        template.render(into: &direct, data: person)
        var reference = HTMLWriter()
        template.render(into: &reference, data: ThroughValue(person: person))
        #expect(direct.string == reference.string)
        #expect(!direct.string.contains("<b>"))
        // By slot, as a prototype cell writes it: the same bytes.
        if let slot = Person.prototypeSlots.firstIndex(of: key) {
            var bySlot = HTMLWriter()
            bySlot.raw("[")
            person.writePrototypeValue(slot: slot, into: &bySlot)
            bySlot.raw("]")
            #expect(bySlot.string == reference.string)
        }
    }

    @Test func everySlotIsAValue() {
        #expect(Person.prototypeSlots == ["name", "role", "email", "bio"])
    }
}
