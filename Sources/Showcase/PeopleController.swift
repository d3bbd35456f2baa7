import Cellar
import TableKit

/// `/people` and `/listbench`: one section of people, paged, each row linking to its detail.
public struct PeopleController: TableController, JSONItemWriting {
    public let title: String
    let cells: PeopleCellProvider
    let footer: String?
    /// Given by whoever made `people`: the showcase's people are generated at start-up from their
    /// count, so the count names them.
    public let contentVersion: String?

    public init(title: String, people: [Person], footer: String? = nil, contentVersion: String? = nil) {
        self.title = title
        cells = PeopleCellProvider(people: people)
        self.footer = footer
        self.contentVersion = contentVersion
    }

    var people: [Person] { cells.people }

    public func numberOfRows(inSection section: Int) -> Int { people.count }
    public func titleForHeader(inSection section: Int) -> String? { footer == nil ? nil : "Everyone" }
    public func titleForFooter(inSection section: Int) -> String? { footer }
    public func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider { cells.cellProvider(forRowAt: indexPath) }
    public func identifier(forRowAt indexPath: IndexPath) -> String { people[indexPath.row].identifier }
    public func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { people[indexPath.row] }

    public func writeItem(forRowAt indexPath: IndexPath, into json: inout JSONWriter) -> Bool {
        cells.people[indexPath.row].writeJSON(into: &json)
        return true
    }
    public func detail(forRowAt indexPath: IndexPath) -> RowDetail? { people[indexPath.row].detail }

    public func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
        // Ids are 1…count in order, so the row is found by arithmetic, not by a scan.
        guard let id = Int(identifier), String(id) == identifier, id >= 1, id <= people.count, people[id - 1].id == id else { return nil }
        return IndexPath(row: id - 1, section: 0)
    }
}
