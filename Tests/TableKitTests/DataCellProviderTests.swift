import Foundation
import TableKit
import Testing

@Suite struct DataCellProviderTests {
    private final class LazyCell: TableViewCell {
        var value = 0
        override func prepareForReuse() { value = 0 }
    }

    private struct Person: PrototypeData {
        var name: String
        var role: String

        func prototypeValue(forKey key: String) -> PrototypeValue {
            switch key {
            case "name": .text(name)
            case "role": .text(role)
            default: .missing
            }
        }
    }

    private let origin = IndexPath(row: 0, section: 0)

    // MARK: Class cells

    @Test func theClosuresParameterTypePicksTheCell() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        let provider = DataCellProvider(for: origin) { (cell: TitleCell) in cell.title = "Ada" }
        #expect(provider.reuseIdentifier == "TitleCell")
        #expect(provider.indexPath == origin)
        #expect(provider.registerCell)

        let cell = try provider.dequeueConfiguredCell(from: TableView(registry: registry))
        #expect((cell as? TitleCell)?.title == "Ada")
        #expect(cell.selection == nil)
    }

    @Test func registerCellRegistersTheClassOnFirstUse() throws {
        let registry = ReuseRegistry()
        let provider = DataCellProvider(for: origin) { (cell: LazyCell) in cell.value = 1 }
        let cell = try provider.dequeueConfiguredCell(from: TableView(registry: registry))
        #expect(type(of: cell) == LazyCell.self)
        #expect(registry.registeredIdentifiers == ["LazyCell"])
    }

    @Test func registerCellUsesTheProvidersIdentifier() throws {
        let registry = ReuseRegistry()
        let provider = DataCellProvider(reuseIdentifier: "Lazy", for: origin) { (_: LazyCell) in }
        _ = try provider.dequeueConfiguredCell(from: TableView(registry: registry))
        #expect(registry.registeredIdentifiers == ["Lazy"])
    }

    @Test func withoutRegisterCellAnUnregisteredClassIsAnError() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        let provider = DataCellProvider(for: origin, registerCell: false) { (_: LazyCell) in }
        #expect(!provider.registerCell)
        #expect(throws: TableKitError.unregisteredIdentifier("LazyCell", registered: ["TitleCell"])) {
            _ = try provider.dequeueConfiguredCell(from: TableView(registry: registry))
        }
        #expect(registry.registeredIdentifiers == ["TitleCell"])
    }

    @Test func anIdentifierHeldByAnotherClassIsATypeMismatchNotARegistration() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self, forCellReuseIdentifier: "LazyCell")
        let provider = DataCellProvider(for: origin) { (_: LazyCell) in }
        let error = #expect(throws: TableKitError.self) {
            _ = try provider.dequeueConfiguredCell(from: TableView(registry: registry))
        }
        guard case .typeMismatch(let identifier, let registered, let requested) = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(identifier == "LazyCell")
        #expect(registered == "TableKitTests.TitleCell")
        #expect(requested.hasSuffix("LazyCell"))
    }

    @Test func aThrowingConfigurationPropagatesAndRecyclesTheCell() throws {
        struct Refused: Error, Equatable {}
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        let tableView = TableView(registry: registry)
        let refusing = DataCellProvider(for: origin) { (_: TitleCell) in throw Refused() }
        #expect(throws: Refused()) { _ = try refusing.dequeueConfiguredCell(from: tableView) }

        _ = try tableView.dequeueReusableCell(TitleCell.self, for: origin)
        #expect(registry.reuse == Reuse(pools: 1, created: 1, reused: 1))
    }

    @Test func theSelectionIsSetBeforeConfiguration() throws {
        let registry = ReuseRegistry()
        var seen: String?
        let provider = DataCellProvider(for: origin) { (cell: TitleCell) in seen = cell.selection?.href }
        _ = try provider.dequeueConfiguredCell(from: TableView(registry: registry), selection: RowSelection(base: "/people", identifier: "1"))
        #expect(seen == "/people/1")
    }

    // MARK: ConfigurableCell

    @Test func aConfigurableCellGetsItsTypedData() throws {
        let registry = ReuseRegistry()
        let provider = DataCellProvider(for: origin, cell: ToggleCell.self, data: (title: "Wi-Fi", isOn: true))
        #expect(provider.reuseIdentifier == "ToggleCell")
        let cell = try #require(try provider.dequeueConfiguredCell(from: TableView(registry: registry)) as? ToggleCell)
        #expect(cell.setting?.title == "Wi-Fi")
        #expect(cell.setting?.isOn == true)
        #expect(registry.registeredIdentifiers == ["ToggleCell"])
    }

    @Test func aConfigurableCellWithoutRegisterCellMustBeRegistered() {
        let provider = DataCellProvider(for: origin, cell: ToggleCell.self, data: (title: "Wi-Fi", isOn: true), registerCell: false)
        #expect(throws: TableKitError.unregisteredIdentifier("ToggleCell", registered: [])) {
            _ = try provider.dequeueConfiguredCell(from: TableView(registry: ReuseRegistry()))
        }
    }

    // MARK: Prototypes

    @Test func aPrototypeIsFilledFromItsData() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)
        let provider = DataCellProvider(prototype: "SubtitleCell", for: origin, data: Person(name: "Grace", role: "Admiral"))
        #expect(!provider.registerCell)
        let cell = try #require(try provider.dequeueConfiguredCell(from: TableView(registry: registry)) as? PrototypeCell)
        var html = HTMLWriter()
        try cell.render(into: &html)
        // Without a selection (a list without details) the row link is a span.
        #expect(html.string == #"<span class="cell-link"><span class="cell-title">Grace</span> <span class="cell-subtitle">Admiral</span></span>"#)
    }

    @Test func aPrototypeIsNeverRegisteredOnUse() {
        let registry = ReuseRegistry()
        let provider = DataCellProvider(prototype: "SubtitleCell", for: origin, data: ["name": "Grace"])
        #expect(throws: TableKitError.unregisteredIdentifier("SubtitleCell", registered: [])) {
            _ = try provider.dequeueConfiguredCell(from: TableView(registry: registry))
        }
        #expect(registry.registeredIdentifiers.isEmpty)
    }

    @Test func aPrototypeProviderForAClassIsATypeMismatch() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        let provider = DataCellProvider(prototype: "TitleCell", for: origin, data: ["title": "x"])
        #expect(
            throws: TableKitError.typeMismatch(identifier: "TitleCell", registered: "TableKitTests.TitleCell", requested: "TableKit.PrototypeCell")
        ) {
            _ = try provider.dequeueConfiguredCell(from: TableView(registry: registry))
        }
    }

    // MARK: DataCellProviding

    /// shaps80's composited approach: one value serves the cells of many lists.
    private struct PeopleCells: DataCellProviding {
        var names: [String]
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            let name = names[indexPath.row]
            if name.hasPrefix("Dr") {
                return DataCellProvider(for: indexPath) { (cell: TitleCell) in cell.title = name }
            }
            return DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: ["name": name])
        }
    }

    @Test func aProvidingValueCanServeSeveralLists() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)
        let cells = PeopleCells(names: ["Dr Who", "Rose"])
        let first = StubController(rows: 2, provider: cells.cellProvider(forRowAt:))
        let second = StubController(rows: 1, provider: PeopleCells(names: ["Martha"]).cellProvider(forRowAt:))

        let html = try first.renderedHTML(registry: registry) + second.renderedHTML(registry: registry)
        #expect(html.contains(#"<li class="cell title" id="row-0-0"><span class="cell-title">Dr Who</span></li>"#))
        #expect(html.contains(#"<span class="cell-title">Rose</span></span></li>"#))
        #expect(html.contains(#"<span class="cell-title">Martha</span></span></li>"#))
    }

    // MARK: Concurrency

    /// `registerCell: true` on first use from many threads at once: no crash, no error, one
    /// registration. Repeated over fresh registries so the threads race for the first use many times.
    @Test func registerCellOnFirstUseFromManyThreadsAtOnce() throws {
        for _ in 0..<100 {
            let registry = ReuseRegistry()
            let errors = ErrorLog()
            runConcurrently(threads: 8) { iteration in
                TableView(registry: registry)
            } race: { iteration, tableView in
                let provider = DataCellProvider(for: IndexPath(row: iteration, section: 0)) { (cell: LazyCell) in cell.value = iteration }
                do {
                    let cell = try provider.dequeueConfiguredCell(from: tableView)
                    if (cell as? LazyCell)?.value != iteration { errors.append("row \(iteration) got another cell's value") }
                    tableView.recycle(cell)
                } catch {
                    errors.append("row \(iteration): \(error)")
                }
            }
            #expect(errors.entries.isEmpty)
            #expect(registry.registeredIdentifiers == ["LazyCell"])
            #expect(registry.reuse == Reuse(pools: 8, created: 8, reused: 0))
        }
    }
}
