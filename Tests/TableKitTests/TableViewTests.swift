import TableKit
import Testing

@Suite struct TableViewTests {
    private final class OtherCell: TableViewCell {}
    private let origin = IndexPath(row: 0, section: 0)

    // MARK: Errors

    @Test func anUnregisteredIdentifierNamesItselfAndWhatIsRegistered() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)
        let tableView = TableView(registry: registry)

        let error = #expect(throws: TableKitError.unregisteredIdentifier("MissingCell", registered: ["SubtitleCell", "TitleCell"])) {
            _ = try tableView.dequeueReusableCell(withIdentifier: "MissingCell", for: origin)
        }
        let message = try #require(error).description
        #expect(message.contains("'MissingCell'"))
        #expect(message.contains("registered: SubtitleCell, TitleCell"))
        #expect(message.contains("Have you registered the cell?"))
        #expect(message.contains("register(_:)") && message.contains("Public/prototypes/MissingCell.html"))
    }

    @Test func anEmptyRegistrySaysNothingIsRegistered() {
        let tableView = TableView(registry: ReuseRegistry())
        let error = #expect(throws: TableKitError.self) {
            _ = try tableView.dequeueReusableCell(TitleCell.self, for: origin)
        }
        #expect(error == .unregisteredIdentifier("TitleCell", registered: []))
        #expect(error?.description.contains("(nothing is registered)") == true)
        #expect(error?.description.contains("Have you registered the cell?") == true)
    }

    @Test func theWrongTypeForAnIdentifierIsATypeMismatch() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self, forCellReuseIdentifier: "Row")
        let tableView = TableView(registry: registry)

        let error = #expect(throws: TableKitError.self) {
            _ = try tableView.dequeueReusableCell(DetailCell.self, withIdentifier: "Row", for: origin)
        }
        #expect(error == .typeMismatch(identifier: "Row", registered: "TableKitTests.TitleCell", requested: "TableKitTests.DetailCell"))
        #expect(error?.description == "The cell registered for reuse identifier 'Row' is TableKitTests.TitleCell, not TableKitTests.DetailCell.")
    }

    @Test func aMismatchedCellGoesBackToThePool() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self, forCellReuseIdentifier: "Row")
        let tableView = TableView(registry: registry)
        _ = try? tableView.dequeueReusableCell(DetailCell.self, withIdentifier: "Row", for: origin)
        _ = try tableView.dequeueReusableCell(TitleCell.self, withIdentifier: "Row", for: origin)
        #expect(registry.reuse == Reuse(pools: 1, created: 1, reused: 1))
    }

    @Test func aPrototypeCannotBeDequeuedAsAClass() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("TitleCell", template: "{{title}}")
        #expect(
            throws: TableKitError.typeMismatch(identifier: "TitleCell", registered: "TableKit.PrototypeCell", requested: "TableKitTests.TitleCell")
        ) {
            _ = try TableView(registry: registry).dequeueReusableCell(TitleCell.self, for: origin)
        }
    }

    @Test func aSubclassMayBeDequeuedAsItsSuperclass() throws {
        let registry = ReuseRegistry()
        try registry.register(OtherCell.self, forCellReuseIdentifier: "Row")
        let cell = try TableView(registry: registry).dequeueReusableCell(TableViewCell.self, withIdentifier: "Row", for: origin)
        #expect(type(of: cell) == OtherCell.self)
    }

    // MARK: Reuse

    @Test func aRecycledCellIsPreparedAndHandedOutAgain() throws {
        let registry = ReuseRegistry()
        try registry.register(DetailCell.self)
        let tableView = TableView(registry: registry)

        let first = try tableView.dequeueReusableCell(DetailCell.self, for: IndexPath(row: 0, section: 0))
        first.title = "Row 0"
        first.subtitle = "only row 0 has one"
        #expect(first.timesPreparedForReuse == 0)  // a new cell is not "reused"
        tableView.recycle(first)

        let second = try tableView.dequeueReusableCell(DetailCell.self, for: IndexPath(row: 1, section: 0))
        #expect(second === first)
        #expect(second.timesPreparedForReuse == 1)
        #expect(second.title.isEmpty && second.subtitle == nil)
        #expect(second.indexPath == IndexPath(row: 1, section: 0))
    }

    @Test func cellsInUseAreNotHandedOutTwice() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        let tableView = TableView(registry: registry)
        let first = try tableView.dequeueReusableCell(TitleCell.self, for: origin)
        let second = try tableView.dequeueReusableCell(TitleCell.self, for: origin)
        #expect(first !== second)
        #expect(registry.reuse == Reuse(pools: 1, created: 2, reused: 0))
    }

    @Test func recyclingClearsTheSelection() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        let tableView = TableView(registry: registry)
        let provider = DataCellProvider(for: origin) { (_: TitleCell) in }
        let selected = try provider.dequeueConfiguredCell(from: tableView, selection: RowSelection(base: "/people", identifier: "7"))
        #expect(selected.selection?.href == "/people/7")
        tableView.recycle(selected)

        let next = try tableView.dequeueReusableCell(TitleCell.self, for: origin)
        #expect(next === selected)
        #expect(next.selection == nil)
    }

    @Test func aCellMadeElsewhereIsNotTakenIntoThePool() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        let tableView = TableView(registry: registry)
        let stray = TitleCell()
        tableView.recycle(stray)
        let cell = try tableView.dequeueReusableCell(TitleCell.self, for: origin)
        #expect(cell !== stray)
    }

    // MARK: Pools

    @Test func eachLiveTableViewHasItsOwnPoolAndPoolsAreRecycled() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        do {
            let first = TableView(registry: registry)
            let second = TableView(registry: registry)
            let a = try first.dequeueReusableCell(TitleCell.self, for: origin)
            let b = try second.dequeueReusableCell(TitleCell.self, for: origin)
            first.recycle(a)
            second.recycle(b)
            #expect(registry.reuse == Reuse(pools: 2, created: 2, reused: 0))
        }
        // Both table views are gone, so both pools are idle: a new table view takes one of them,
        // with its recycled cell.
        let third = TableView(registry: registry)
        _ = try third.dequeueReusableCell(TitleCell.self, for: origin)
        #expect(registry.reuse == Reuse(pools: 2, created: 2, reused: 1))
    }

    @Test func aCellIsTakenBackOnlyByTheTableViewItCameFrom() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        let first = TableView(registry: registry)
        let second = TableView(registry: registry)
        let cell = try first.dequeueReusableCell(TitleCell.self, for: origin)
        // Another render's pool, perhaps on another thread: not this cell's, so it is let go.
        second.recycle(cell)
        #expect(try second.dequeueReusableCell(TitleCell.self, for: origin) !== cell)
        #expect(try first.dequeueReusableCell(TitleCell.self, for: origin) !== cell)
        first.recycle(cell)
        #expect(try first.dequeueReusableCell(TitleCell.self, for: origin) === cell)
    }

    @Test func aCellThatOutlivedItsRegistryIsLetGo() throws {
        let kept: TitleCell
        do {
            let registry = ReuseRegistry()
            try registry.register(TitleCell.self)
            kept = try TableView(registry: registry).dequeueReusableCell(TitleCell.self, for: origin)
        }
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        let tableView = TableView(registry: registry)
        _ = try tableView.dequeueReusableCell(TitleCell.self, for: origin)
        tableView.recycle(kept)
        #expect(try tableView.dequeueReusableCell(TitleCell.self, for: origin) !== kept)
    }

    @Test func selectionBaseIsKept() {
        #expect(TableView(registry: ReuseRegistry(), selectionBase: "/people").selectionBase == "/people")
        #expect(TableView(registry: ReuseRegistry()).selectionBase == nil)
    }
}
