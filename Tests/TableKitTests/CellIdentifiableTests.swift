import TableKit
import Testing

/// The two tests of seed 000 (SwiftyPick's `UITableViewTests`), ported.
@Suite struct CellIdentifiableTests {
    private final class CustomTableCellMock: TableViewCell {}

    @Test func reuseIdentifierIsTheClassName() {
        #expect(TableViewCell.reuseIdentifier == "TableViewCell")
        #expect(CustomTableCellMock.reuseIdentifier == "CustomTableCellMock")
    }

    @Test func registerAndDequeueGiveExactlyTheRegisteredType() throws {
        let registry = ReuseRegistry()
        try registry.register(CustomTableCellMock.self)
        try registry.register(TableViewCell.self)
        let tableView = TableView(registry: registry)

        let mockCell = try tableView.dequeueReusableCell(CustomTableCellMock.self, for: IndexPath(row: 0, section: 0))
        let plainCell = try tableView.dequeueReusableCell(TableViewCell.self, for: IndexPath(row: 1, section: 0))

        #expect(type(of: mockCell) == CustomTableCellMock.self)
        #expect(type(of: plainCell) == TableViewCell.self)
        #expect(plainCell.indexPath == IndexPath(row: 1, section: 0))
    }

    @Test func anyClassGetsItsNameByDefault() {
        final class Widget: CellIdentifiable {}
        #expect(Widget.reuseIdentifier == "Widget")
    }

    @Test func aSubclassCanChooseItsIdentifier() throws {
        final class RenamedCell: TableViewCell {
            override class var reuseIdentifier: String { "Renamed" }
        }
        #expect(RenamedCell.reuseIdentifier == "Renamed")
        #expect(RenamedCell().reuseIdentifier == "Renamed")

        // register(_:) is generic over the class: it must still see the override.
        let registry = ReuseRegistry()
        try registry.register(RenamedCell.self)
        #expect(registry.registeredIdentifiers == ["Renamed"])
        let cell = try TableView(registry: registry).dequeueReusableCell(RenamedCell.self, for: IndexPath(row: 0, section: 0))
        #expect(type(of: cell) == RenamedCell.self)
    }

    @Test func anInstanceReportsItsClassIdentifier() {
        let cell: TableViewCell = TitleCell()
        #expect(cell.reuseIdentifier == "TitleCell")
    }
}
