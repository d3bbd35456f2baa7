import Foundation
import TableKit
import Testing

@Suite struct TableRendererTests {
    // MARK: Markup

    @Test func aSectionWithHeaderAndFooter() throws {
        let registry = ReuseRegistry()
        var controller = StubController(sections: [.init(header: "Team <A>", footer: "2 people", rows: 2)]) { indexPath in
            DataCellProvider(for: indexPath) { (cell: TitleCell) in cell.title = "Person \(indexPath.row)" }
        }
        controller.rowIdentifier = { String($0.row) }
        #expect(
            try controller.renderedHTML(registry: registry) == """
                <section class="table-section" data-section="0" aria-labelledby="section-0-header">
                <h2 class="section-header" id="section-0-header">Team &lt;A&gt;</h2>
                <ul class="rows" id="section-0-rows" data-section="0">
                <li class="cell title" id="row-0"><span class="cell-title">Person 0</span></li>
                <li class="cell title" id="row-1"><span class="cell-title">Person 1</span></li>
                </ul>
                <p class="section-footer" id="section-0-footer">2 people</p>
                </section>

                """)
    }

    @Test func aSectionWithoutHeaderHasNoHeadingAndNoLabel() throws {
        let controller = StubController(sections: [.init(footer: "only a footer", rows: 0), .init(rows: 0)]) { _ in fatalError("no rows") }
        let html = try controller.renderedHTML(registry: ReuseRegistry())
        #expect(!html.contains("<h2") && !html.contains("aria-labelledby"))
        #expect(
            html == """
                <section class="table-section" data-section="0">
                <ul class="rows" id="section-0-rows" data-section="0">
                </ul>
                <p class="section-footer" id="section-0-footer">only a footer</p>
                </section>
                <section class="table-section" data-section="1">
                <ul class="rows" id="section-1-rows" data-section="1">
                </ul>
                </section>

                """)
    }

    @Test func anEmptyTableWritesNothing() throws {
        #expect(try StubController(sections: []) { _ in fatalError() }.renderedHTML(registry: ReuseRegistry()).isEmpty)
    }

    @Test func rowIdentifiersArePercentEncodedInIdsAndLinks() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)
        var controller = StubController(rows: 1) { DataCellProvider(prototype: "SubtitleCell", for: $0, data: ["name": "Grace"]) }
        controller.rowIdentifier = { _ in "grace hopper/1" }
        let html = try controller.renderedHTML(registry: registry, selectionBase: "/people")
        #expect(html.contains(#"<li class="cell subtitle" id="row-grace%20hopper%2F1"><a class="cell-link" href="/people/grace%20hopper%2F1">"#))
    }

    /// The renderer lets a row's cell copy the link it already encoded for the row's `id`: every
    /// way of writing a selection must still give exactly the bytes `RowSelection.write` gives on
    /// its own — for the row's own selection, a prototype's `{{href}}`, and selections for other
    /// rows or bases — with identifiers and bases short and long (inline and heap strings), ones
    /// that need encoding and escaping, and identifiers long enough that the copy grows the buffer.
    @Test(arguments: ["/people", #"/a list & "its" <rows> 'here'"#])
    func aRowsLinkIsWrittenAsItsSelectionWritesIt(base: String) throws {
        let registry = ReuseRegistry()
        try registry.register(LinkEchoCell.self)
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)
        let identifiers = ["7", "42", "a b/../c", "row-with-a-long-identifier-0123456789", String(repeating: "é/<>", count: 300), "x"]
        var controller = StubController(rows: identifiers.count) { indexPath in
            if indexPath.row % 2 == 0 {
                let other = identifiers[(indexPath.row + 1) % identifiers.count]
                return DataCellProvider(for: indexPath) { (cell: LinkEchoCell) in cell.otherIdentifier = other }
            }
            return DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: ["name": "N\(indexPath.row)"])
        }
        controller.rowIdentifier = { identifiers[$0.row] }
        let html = try controller.renderedHTML(registry: registry, selectionBase: base)

        func link(_ base: String, _ identifier: String) -> String {
            var writer = HTMLWriter()
            RowSelection(base: base, identifier: identifier).write(into: &writer)
            return writer.string
        }
        var expected = ""
        for (row, identifier) in identifiers.enumerated() {
            var encoded = HTMLWriter()
            encoded.pathSegment(identifier)
            let own = link(base, identifier)
            if row % 2 == 0 {
                let other = link(base, identifiers[(row + 1) % identifiers.count])
                expected += #"<li class="cell linkecho" id="row-\#(encoded.string)"><a class="cell-link" href="\#(own)"></a>|\#(own)|"#
                expected += "\(other)|\(link(base + "/x", identifier))|\(own)</li>\n"
            } else {
                expected += #"<li class="cell subtitle" id="row-\#(encoded.string)"><a class="cell-link" href="\#(own)">"#
                expected += #"<span class="cell-title">N\#(row)</span></a></li>"# + "\n"
            }
        }
        let opening = #"<section class="table-section" data-section="0">"# + "\n" + #"<ul class="rows" id="section-0-rows" data-section="0">"# + "\n"
        #expect(html == opening + expected + "</ul>\n</section>\n")
    }

    /// A cell that takes the bytes out of the writer mid-row (emptying it, taking them, or
    /// dropping the front as a stream does) still writes its own link whole: the copy of the row's
    /// encoded identifier is forgotten with the bytes.
    @Test(arguments: [0, 1, 2])
    func aCellThatEmptiesTheWriterStillWritesItsLink(way: Int) throws {
        let registry = ReuseRegistry()
        try registry.register(EmptyingCell.self)
        let identifier = String(repeating: "row/", count: 400)
        var controller = StubController(rows: 1) { indexPath in
            DataCellProvider(for: indexPath) { (cell: EmptyingCell) in
                cell.emptying = { html in
                    switch way {
                    case 0: html.removeAll(keepingCapacity: false)
                    case 1: _ = html.takeBytes()
                    default: html.removeFirst(html.count)
                    }
                }
            }
        }
        controller.rowIdentifier = { _ in identifier }
        let html = try controller.renderedHTML(registry: registry, selectionBase: "/list")
        #expect(html == "[" + RowSelection(base: "/list", identifier: identifier).href + "]</li>\n</ul>\n</section>\n")
    }

    @Test func withoutASelectionBaseRowsDoNotLink() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)
        let controller = StubController(rows: 1) { DataCellProvider(prototype: "SubtitleCell", for: $0, data: ["name": "Grace"]) }
        let html = try controller.renderedHTML(registry: registry)
        // No `href=""` (the page itself) and no `<a>` without one: the row link is a span.
        #expect(!html.contains("href"), "\(html)")
        #expect(html.contains(#"<span class="cell-link"><span class="cell-title">Grace</span>"#), "\(html)")
    }

    // MARK: Golden file

    /// The exact markup of a small table: two sections, a class cell, a prototype cell, a
    /// configurable cell, links, escaping and non-ASCII text. The file is the contract the
    /// stylesheet and the e2e checks are written against; change it only on purpose.
    @Test func aSmallTableMatchesTheGoldenFile() throws {
        let registry = ReuseRegistry()
        try registry.register(DetailCell.self)
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)
        let rows = ["ada", "grace hopper", "wifi"]
        var controller = StubController(sections: [
            .init(header: "Team", footer: "2 people · 1 engineer", rows: 2),
            .init(footer: "Updated \"today\" & 'now'", rows: 1),
        ]) { indexPath in
            switch (indexPath.section, indexPath.row) {
            case (0, 0):
                DataCellProvider(for: indexPath) { (cell: DetailCell) in
                    cell.title = "Ada Lovelace"
                    cell.subtitle = "Engineer & lead"
                }
            case (0, _):
                DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: ["name": "Grace <Admiral>", "role": "Rear admiral"])
            default:
                DataCellProvider(for: indexPath, cell: ToggleCell.self, data: (title: "Wi-Fi", isOn: true))
            }
        }
        controller.rowIdentifier = { rows[$0.section * 2 + $0.row] }

        let html = try controller.renderedHTML(registry: registry, selectionBase: "/people")
        let golden = try String(contentsOf: Self.goldenFile("small-table.html"), encoding: .utf8)
        #expect(html == golden, "rendered markup differs from Golden/small-table.html")
    }

    static func goldenFile(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").appendingPathComponent(name)
    }

    // MARK: Pausing and resuming

    /// A few hundred rows over sections of every kind (header, footer, empty), two class cells
    /// and a prototype, so pauses fall inside sections, between them and on empty ones.
    private func longList() throws -> (StubController, ReuseRegistry) {
        let registry = ReuseRegistry()
        try registry.register(DetailCell.self)
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)
        let sections: [StubController.Section] = [
            .init(header: "First", footer: "120 rows", rows: 120),
            .init(header: "Nothing here", rows: 0),
            .init(rows: 150),
            .init(footer: "Last", rows: 80),
            .init(rows: 0),
        ]
        let controller = StubController(sections: sections) { indexPath in
            switch indexPath.row % 3 {
            case 0:
                DataCellProvider(for: indexPath) { (cell: DetailCell) in
                    cell.title = "Row \(indexPath)"
                    if indexPath.row % 2 == 0 { cell.subtitle = "even" }
                }
            case 1:
                DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: ["name": "Row \(indexPath)", "role": "Ünïcødé 🙂"])
            default:
                DataCellProvider(for: indexPath, cell: ToggleCell.self, data: (title: "Row \(indexPath)", isOn: indexPath.row % 2 == 0))
            }
        }
        return (controller, registry)
    }

    @Test func renderingInStepsGivesTheSameBytesAsAtOnce() throws {
        let (controller, registry) = try longList()
        let whole = try controller.renderedHTML(registry: registry, selectionBase: "/rows")

        let tableView = TableView(registry: registry, selectionBase: "/rows")
        var renderer = TableRenderer(controller: controller, tableView: tableView)
        var html = HTMLWriter()
        var streamed: [UInt8] = []
        var chunks: [Int] = []
        while true {
            #expect(!renderer.isFinished)
            let finished = try renderer.render(into: &html, pausingAt: 1024)
            streamed += html.bytes
            chunks.append(html.count)
            html.removeAll()
            if finished { break }
            #expect(chunks.count < 10_000, "the renderer must make progress")
        }
        #expect(renderer.isFinished)
        #expect(try renderer.render(into: &html, pausingAt: 1024))  // a finished renderer writes nothing more
        #expect(html.count == 0)

        #expect(String(decoding: streamed, as: UTF8.self) == whole)
        #expect(chunks.count > 20, "a long list must have paused many times")
        // Every chunk but the last reached the limit, and none overshot by more than a row.
        #expect(chunks.dropLast().allSatisfy { $0 >= 1024 && $0 < 1024 + 400 })
    }

    @Test func aZeroLimitStillMakesProgress() throws {
        let (controller, registry) = try longList()
        let whole = try controller.renderedHTML(registry: registry)
        var renderer = TableRenderer(controller: controller, tableView: TableView(registry: registry))
        var html = HTMLWriter()
        var steps = 0
        while try !renderer.render(into: &html, pausingAt: 0) {
            steps += 1
            try #require(steps < 10_000)
        }
        #expect(html.string == whole)
        #expect(steps > 350)  // at least one step per row
    }

    // MARK: Windows

    @Test func windowsRenderEachRowOnceAndRepeatTheSectionAroundThem() throws {
        let (controller, registry) = try longList()
        var pages: [String] = []
        for start in stride(from: 0, to: 350, by: 100) {
            pages.append(try controller.renderedHTML(registry: registry, window: start..<(start + 100)))
        }
        let ids = pages.joined().matches(of: /<li class="cell [a-z]+" id="row-([0-9-]+)">/).map { String($0.output.1) }
        let expected = [(0, 120), (2, 150), (3, 80)].flatMap { section, count in (0..<count).map { "\(section)-\($0)" } }
        #expect(ids == expected)

        // Page 2 (rows 100..<200) ends section 0, shows the empty section 1 and starts section 2.
        #expect(pages[1].hasPrefix(#"<section class="table-section" data-section="0" aria-labelledby="section-0-header">"#))
        #expect(pages[1].contains(#"<p class="section-footer" id="section-0-footer">120 rows</p>"#))
        #expect(pages[1].contains(#"<h2 class="section-header" id="section-1-header">Nothing here</h2>"#))
        #expect(pages[1].contains(#"<section class="table-section" data-section="2">"#))
        #expect(!pages[1].contains(#"data-section="3""#))
        // A section split over pages repeats its header on every page (as the e2e fixtures expect).
        #expect(pages[0].contains(">First</h2>") && pages[1].contains(">First</h2>"))
        // The trailing empty section comes with the last page only.
        #expect(pages[3].contains(#"data-section="4""#) && !pages[2].contains(#"data-section="4""#))
    }

    @Test func aWindowIsClampedToTheRows() throws {
        let (controller, registry) = try longList()
        let tableView = TableView(registry: registry)
        #expect(TableRenderer(controller: controller, tableView: tableView, window: 300..<1000).window == 300..<350)
        #expect(TableRenderer(controller: controller, tableView: tableView, window: -5..<10).window == 0..<10)
        #expect(TableRenderer(controller: controller, tableView: tableView).window == 0..<350)
        let past = try controller.renderedHTML(registry: registry, window: 400..<500)
        #expect(!past.contains("<li"))
    }

    @Test func aWindowRendersInStepsToo() throws {
        let (controller, registry) = try longList()
        let whole = try controller.renderedHTML(registry: registry, window: 110..<290)
        var renderer = TableRenderer(controller: controller, tableView: TableView(registry: registry), window: 110..<290)
        var html = HTMLWriter()
        var streamed = ""
        while true {
            let finished = try renderer.render(into: &html, pausingAt: 1024)
            streamed += html.string
            html.removeAll()
            if finished { break }
        }
        #expect(streamed == whole)
    }

    // MARK: Errors

    @Test func aFailingCellStopsTheRenderAndIsRecycled() throws {
        let registry = ReuseRegistry()
        let controller = StubController(rows: 3) { indexPath in
            indexPath.row == 1
                ? DataCellProvider(for: indexPath) { (_: FailingCell) in }
                : DataCellProvider(for: indexPath) { (cell: TitleCell) in cell.title = "fine" }
        }
        let tableView = TableView(registry: registry)
        var renderer = TableRenderer(controller: controller, tableView: tableView)
        var html = HTMLWriter()
        #expect(throws: FailingCell.Failure()) { _ = try renderer.render(into: &html) }
        #expect(html.string.contains(#"<li class="cell failing" id="row-0-1">half a row"#))
        #expect(!html.string.contains("row-0-2"))

        _ = try tableView.dequeueReusableCell(FailingCell.self, for: IndexPath(row: 0, section: 0))
        #expect(registry.statistics.cellsReused == 1)
    }

    @Test func anUnregisteredPrototypeStopsTheRenderWithItsName() {
        let controller = StubController(rows: 1) { DataCellProvider(prototype: "GhostCell", for: $0, data: ["name": "x"]) }
        #expect(throws: TableKitError.unregisteredIdentifier("GhostCell", registered: [])) {
            _ = try controller.renderedHTML(registry: ReuseRegistry())
        }
    }

    @Test func theRendererExposesWhatItRenders() throws {
        let (controller, registry) = try longList()
        let renderer = TableRenderer(controller: controller, tableView: TableView(registry: registry))
        #expect(renderer.layout.sectionStarts == TableLayout(controller).sectionStarts)
        #expect(renderer.controller.numberOfSections == 5)
        #expect(renderer.tableView.registry === registry)
    }
}
