import TableKit

/// An engineer's row: name and role badge linking to the detail, a `mailto:` link, the bio.
/// A class cell, registered by class, that renders the row's ``Person`` lent by ``ItemCell``.
public final class EngineerCell: ItemCell<Person> {
    public override func render(_ person: Person, into html: inout HTMLWriter) {
        html.openSelectionLink(selection)
        html.raw("<span class=\"cell-title\">")
        html.text(person.name)
        html.raw("</span> <span class=\"badge\">")
        html.text(person.role.rawValue)
        html.raw("</span>")
        html.closeSelectionLink(selection)
        html.raw(" <a class=\"cell-email\" href=\"mailto:")
        html.text(person.email)
        html.raw("\">")
        html.text(person.email)
        html.raw("</a> <p class=\"cell-bio\">")
        html.text(person.bio)
        html.raw("</p>")
    }
}

/// Hands out people rows for any list of people (`/people`, `/listbench`): engineers get the
/// registered ``EngineerCell``, everyone else the `SubtitleCell` prototype from
/// `Public/prototypes/SubtitleCell.html` — the example of shaps80's cell providers, outside any controller.
public struct PeopleCellProvider: DataCellProviding, Sendable {
    public let people: [Person]

    public init(people: [Person]) { self.people = people }

    public func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let person = people[indexPath.row]
        if person.role == .engineer {
            return DataCellProvider(for: indexPath, registerCell: false) { (cell: EngineerCell) in cell.item = person }
        }
        return DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: person)
    }
}
