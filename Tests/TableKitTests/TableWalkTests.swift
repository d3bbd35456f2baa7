import Testing

@testable import TableKit

/// Records what a walk hands it; each event counts as ten bytes, so a byte limit pauses it.
private struct RecordingSink: TableWalkSink {
    var events: [String] = []
    var failingRow: IndexPath?

    struct Failure: Error, Equatable {}

    var byteCount: Int { events.count * 10 }

    mutating func openSection(_ section: TableWalk.Section) {
        events.append("open \(section.index) \(section.header ?? "-") \(section.footer ?? "-")")
    }

    mutating func writeRow(at indexPath: IndexPath, identifier: consuming String, provider: DataCellProvider) throws {
        if indexPath == failingRow { throw Failure() }
        events.append("row \(identifier) \(provider.reuseIdentifier) \(provider.indexPath == indexPath)")
    }

    mutating func closeSection(_ section: TableWalk.Section) {
        events.append("close \(section.index) \(section.footer ?? "-")")
    }
}

@Suite struct TableWalkTests {
    private let controller = StubController(
        sections: [.init(header: "A", footer: "two", rows: 2), .init(header: "Empty", rows: 0), .init(footer: "end", rows: 3)]
    ) { indexPath in
        indexPath.section == 0
            ? DataCellProvider(for: indexPath) { (_: TitleCell) in }
            : DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: ["name": "x"])
    }

    private func walked(window: Range<Int>? = nil, pausingAt limit: Int = .max) throws -> (events: [String], pauses: Int) {
        var walk = TableWalk(controller: controller, window: window)
        var sink = RecordingSink()
        var pauses = 0
        while try !walk.walk(into: &sink, pausingAt: limit) {
            pauses += 1
            try #require(pauses < 100, "the walk must make progress")
        }
        #expect(walk.isFinished)
        return (sink.events, pauses)
    }

    @Test func theSinkGetsEachSectionWithItsTitlesAndEachRowWithItsIdentifierAndProvider() throws {
        #expect(
            try walked().events == [
                "open 0 A two", "row 0-0 TitleCell true", "row 0-1 TitleCell true", "close 0 two",
                "open 1 Empty -", "close 1 -",
                "open 2 - end", "row 2-0 SubtitleCell true", "row 2-1 SubtitleCell true", "row 2-2 SubtitleCell true", "close 2 end",
            ])
    }

    @Test func aWindowOpensOnlyTheSectionsItCovers() throws {
        #expect(
            try walked(window: 1..<3).events == [
                "open 0 A two", "row 0-1 TitleCell true", "close 0 two", "open 1 Empty -", "close 1 -",
                "open 2 - end", "row 2-0 SubtitleCell true", "close 2 end",
            ])
        #expect(TableWalk(controller: controller, window: -4..<99).window == 0..<5)
    }

    @Test func aWalkPausedAtTheSinksByteCountResumesWhereItStopped() throws {
        let whole = try walked().events
        let paused = try walked(pausingAt: 20)
        #expect(paused.events == whole)
        #expect(paused.pauses >= 4)
        // A limit of zero still moves on by one row or section at a time.
        let stepwise = try walked(pausingAt: 0)
        #expect(stepwise.events == whole)
        #expect(stepwise.pauses >= whole.count)
    }

    @Test func aThrowingSinkStopsTheWalkWithItsError() throws {
        var walk = TableWalk(controller: controller)
        var sink = RecordingSink(failingRow: IndexPath(row: 1, section: 2))
        #expect(throws: RecordingSink.Failure()) { _ = try walk.walk(into: &sink) }
        #expect(sink.events.last == "row 2-0 SubtitleCell true")
    }

    @Test func oneRowAloneGoesThroughTheSameSinkCall() throws {
        var sink = RecordingSink()
        try TableWalk.walkRow(at: IndexPath(row: 2, section: 2), of: controller, into: &sink)
        #expect(sink.events == ["row 2-2 SubtitleCell true"])
    }

    // MARK: A row rendered alone

    /// Class, configurable and prototype cells, rows that link to their detail (whose link the
    /// page copies from the row's id) and a hostile identifier.
    private func mixedList() throws -> (StubController, ReuseRegistry) {
        let registry = ReuseRegistry()
        try registry.register(DetailCell.self)
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)
        var controller = StubController(sections: [.init(header: "H", footer: "F", rows: 7), .init(rows: 5)]) { indexPath in
            switch indexPath.row % 3 {
            case 0: DataCellProvider(for: indexPath) { (cell: DetailCell) in cell.title = "Row \(indexPath) <&>" }
            case 1: DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: ["name": "Row \(indexPath)", "role": "Ünïcødé"])
            default: DataCellProvider(for: indexPath, cell: ToggleCell.self, data: (title: "Row \(indexPath)", isOn: true))
            }
        }
        controller.rowIdentifier = { $0.row == 4 ? "a/b \"c\" é" : "\($0.section)-\($0.row)" }
        return (controller, registry)
    }

    @Test(arguments: [String?.none, "/rows"])
    func aRowRenderedAloneIsTheRowInThePage(selectionBase: String?) throws {
        let (controller, registry) = try mixedList()
        let page = try controller.renderedHTML(registry: registry, selectionBase: selectionBase)
        let renderer = TableRenderer(controller: controller, tableView: TableView(registry: registry, selectionBase: selectionBase))
        for (section, rows) in [(0, 7), (1, 5)] {
            var alone = ""
            for row in 0..<rows {
                var html = HTMLWriter()
                try renderer.renderRow(at: IndexPath(row: row, section: section), into: &html)
                #expect(html.string.hasPrefix("<li class=\"cell ") && html.string.hasSuffix("</li>\n"))
                alone += html.string
            }
            // Byte for byte the section's rows, in order, between its list's tags.
            #expect(page.contains("<ul class=\"rows\" id=\"section-\(section)-rows\" data-section=\"\(section)\">\n" + alone + "</ul>\n"))
        }
        if selectionBase != nil { #expect(page.contains(#"href="/rows/a%2Fb%20%22c%22%20%C3%A9""#)) }
    }

    @Test func aRowRenderedAloneThatFailsThrowsAndRecyclesItsCell() throws {
        let registry = ReuseRegistry()
        let controller = StubController(rows: 1) { DataCellProvider(for: $0) { (_: FailingCell) in } }
        let tableView = TableView(registry: registry)
        let renderer = TableRenderer(controller: controller, tableView: tableView)
        var html = HTMLWriter()
        #expect(throws: FailingCell.Failure()) { try renderer.renderRow(at: IndexPath(row: 0, section: 0), into: &html) }
        _ = try tableView.dequeueReusableCell(FailingCell.self, for: IndexPath(row: 0, section: 0))
        #expect(registry.statistics.cellsReused == 1)
    }
}
