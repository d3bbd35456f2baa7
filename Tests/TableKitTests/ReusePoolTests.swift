import TableKit
import Testing

@Suite struct ReusePoolTests {
    /// Ten thousand rows alternating a class cell and a prototype cell.
    private func bigList() throws -> (StubController, ReuseRegistry) {
        let registry = ReuseRegistry()
        try registry.register(DetailCell.self)
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)
        let controller = StubController(rows: 10_000) { indexPath in
            if indexPath.row.isMultiple(of: 2) {
                return DataCellProvider(for: indexPath) { (cell: DetailCell) in cell.title = "Row \(indexPath.row)" }
            }
            return DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: ["name": "Row \(indexPath.row)"])
        }
        return (controller, registry)
    }

    @Test func tenThousandRowsMakeOneCellPerIdentifierAndTheSecondRenderMakesNone() throws {
        let (controller, registry) = try bigList()

        let first = try controller.renderedHTML(registry: registry)
        #expect(first.matches(of: #/<li /#).count == 10_000)
        #expect(registry.reuse == Reuse(pools: 1, created: 2, reused: 9_998))

        let second = try controller.renderedHTML(registry: registry)
        #expect(second == first)
        #expect(registry.reuse == Reuse(pools: 1, created: 2, reused: 19_998))
    }

    @Test func prepareForReuseRunsOnEveryReuse() throws {
        let registry = ReuseRegistry()
        let controller = StubController(rows: 50) { indexPath in
            DataCellProvider(for: indexPath) { (cell: DetailCell) in cell.title = "Row \(indexPath.row)" }
        }
        let tableView = TableView(registry: registry)
        var renderer = TableRenderer(controller: controller, tableView: tableView)
        var html = HTMLWriter()
        _ = try renderer.render(into: &html)

        // The one cell served all 50 rows; dequeuing it once more is its 50th reuse.
        let cell = try tableView.dequeueReusableCell(DetailCell.self, for: IndexPath(row: 0, section: 0))
        #expect(cell.timesPreparedForReuse == 50)
        #expect(registry.reuse == Reuse(pools: 1, created: 1, reused: 50))
    }

    @Test func stateSetOnOneRowNeverLeaksIntoTheNext() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)
        // Only every third row has a subtitle (class cell) or a role (prototype); the others
        // leave them unset and rely on the reused cell having forgotten the previous row's.
        let controller = StubController(rows: 60) { indexPath in
            let hasExtra = indexPath.row % 6 < 2
            if indexPath.row.isMultiple(of: 2) {
                return DataCellProvider(for: indexPath) { (cell: DetailCell) in
                    cell.title = "Row \(indexPath.row)"
                    if hasExtra { cell.subtitle = "extra \(indexPath.row)" }
                }
            }
            var data = ["name": "Row \(indexPath.row)"]
            if hasExtra { data["role"] = "extra \(indexPath.row)" }
            return DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: data)
        }
        let html = try controller.renderedHTML(registry: registry)
        let rows = html.split(separator: "\n").filter { $0.hasPrefix("<li") }
        #expect(rows.count == 60)
        for (index, row) in rows.enumerated() {
            #expect(row.contains(">Row \(index)<"))
            let extras = row.matches(of: /extra ([0-9]+)/).map { Int($0.output.1)! }
            #expect(extras == (index % 6 < 2 ? [index] : []), "row \(index): \(row)")
        }
        #expect(registry.statistics.cellsCreated == 2)
    }

    /// The idle cells of a kind are a stack that grows past its first room: many cells out at
    /// once all come back, are handed out again last in first out, and are freed with the registry.
    @Test func manyCellsOutAtOnceAllComeBackAndAreFreedWithTheRegistry() throws {
        weak var first: TitleCell?
        try {
            let registry = ReuseRegistry()
            try registry.register(TitleCell.self)
            let tableView = TableView(registry: registry)
            let cells = try (0..<11).map { try tableView.dequeueReusableCell(TitleCell.self, for: IndexPath(row: $0, section: 0)) }
            first = cells[0]
            cells.forEach(tableView.recycle)
            let again = try (0..<11).map { try tableView.dequeueReusableCell(TitleCell.self, for: IndexPath(row: $0, section: 0)) }
            #expect(again.map(ObjectIdentifier.init) == cells.reversed().map(ObjectIdentifier.init))
            #expect(registry.statistics.cellsCreated == 11 && registry.statistics.cellsReused == 11)
            again.forEach(tableView.recycle)
            #expect(first != nil)
        }()
        #expect(first == nil)
    }

    /// A cell recycled twice is kept once: the next two rows get two different cells.
    @Test func aCellRecycledTwiceIsHandedOutOnce() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        let tableView = TableView(registry: registry)
        let first = try tableView.dequeueReusableCell(TitleCell.self, for: IndexPath(row: 0, section: 0))
        let second = try tableView.dequeueReusableCell(TitleCell.self, for: IndexPath(row: 1, section: 0))
        tableView.recycle(second)
        tableView.recycle(first)
        tableView.recycle(first)
        let again = try (0..<3).map { try tableView.dequeueReusableCell(TitleCell.self, for: IndexPath(row: $0, section: 0)) }
        #expect(again[0] === first)
        #expect(again[1] === second)
        #expect(again[2] !== first && again[2] !== second)
        #expect(registry.reuse == Reuse(pools: 1, created: 3, reused: 2))
    }

    @Test func aPoolCountsOnlyItsOwnCells() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        #expect(registry.reuse == Reuse(pools: 0))
        let tableView = TableView(registry: registry)
        #expect(registry.reuse == Reuse(pools: 1))
        let cell = try tableView.dequeueReusableCell(TitleCell.self, for: IndexPath(row: 0, section: 0))
        tableView.recycle(cell)
        _ = try tableView.dequeueReusableCell(TitleCell.self, for: IndexPath(row: 1, section: 0))
        #expect(registry.reuse == Reuse(pools: 1, created: 1, reused: 1))
    }
}
