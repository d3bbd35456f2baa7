import Cellar
import Showcase
import TableKit
import Testing

/// `JSONItemWriting.cellIdentifier(forRowAt:)` names a row's cell without making its provider; it
/// must name the cell the provider picks.
@Suite struct CellIdentifierTests {
    @Test func peopleNameTheCellTheirProviderPicks() {
        let people = (1...40).map {
            Person(id: $0, name: "Person \($0)", role: Person.Role.allCases[$0 % 4], email: "p\($0)@example.com", bio: "")
        }
        let controller = PeopleController(title: "People", people: people)
        var names: Set<String> = []
        for row in people.indices {
            let indexPath = IndexPath(row: row, section: 0)
            let named = controller.cellIdentifier(forRowAt: indexPath)
            #expect(named == controller.cellProvider(forRowAt: indexPath).reuseIdentifier, "row \(row)")
            names.insert(named ?? "")
        }
        #expect(names == ["EngineerCell", "SubtitleCell"])
    }
}
