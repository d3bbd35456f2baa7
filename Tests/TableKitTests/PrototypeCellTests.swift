import TableKit
import Testing

@Suite struct PrototypeCellTests {
    private func registry(_ template: String) throws -> ReuseRegistry {
        let registry = ReuseRegistry()
        try registry.registerPrototype("RowCell", template: template)
        return registry
    }

    @Test func theTableSuppliesIdAndHrefBeforeTheRowsData() throws {
        let registry = try registry(#"<a href="{{href}}" data-id="{{id}}">{{name}}</a>"#)
        var controller = StubController(rows: 1) {
            DataCellProvider(prototype: "RowCell", for: $0, data: ["id": "data's id", "href": "javascript:alert(1)", "name": "Ada"])
        }
        controller.rowIdentifier = { _ in "ada lovelace" }
        let html = try controller.renderedHTML(registry: registry, selectionBase: "/people")
        #expect(html.contains(#"<a href="/people/ada%20lovelace" data-id="ada lovelace">Ada</a>"#))
    }

    @Test func withoutASelectionIdAndHrefComeFromTheData() throws {
        let registry = try registry(#"<a href="{{href}}" data-id="{{id}}">{{name}}</a>"#)
        let controller = StubController(rows: 1) {
            DataCellProvider(prototype: "RowCell", for: $0, data: ["id": "7", "href": "/elsewhere", "name": "Ada"])
        }
        #expect(try controller.renderedHTML(registry: registry).contains(#"<a href="/elsewhere" data-id="7">Ada</a>"#))
    }

    @Test func aPrototypeCellIsRecycledAndForgetsItsData() throws {
        let registry = try registry("{{name}}")
        let tableView = TableView(registry: registry)
        let origin = IndexPath(row: 0, section: 0)
        let cell = try #require(
            try DataCellProvider(prototype: "RowCell", for: origin, data: ["name": "Ada"]).dequeueConfiguredCell(from: tableView) as? PrototypeCell)
        #expect(cell.data != nil)
        #expect(cell.reuseIdentifier == "PrototypeCell")
        tableView.recycle(cell)
        let again = try tableView.dequeueReusableCell(PrototypeCell.self, withIdentifier: "RowCell", for: origin)
        #expect(again === cell)
        #expect(again.data == nil)
        var html = HTMLWriter()
        try again.render(into: &html)
        #expect(html.count == 0)
    }

    /// Row data that reports when it is freed.
    final class Row: PrototypeData {
        let name: String
        init(name: String) { self.name = name }
        func prototypeValue(forKey key: String) -> PrototypeValue { key == "name" ? .text(name) : .missing }
    }

    /// The table lends a prototype row's data to the template for the render: every row shows its
    /// own values through the one recycled cell, and once the page is written no cell holds a row.
    @Test func theTableLendsEachRowsDataToTheTemplateAndKeepsNone() throws {
        let registry = try registry("{{name}}")
        weak var last: Row?
        let html = try {
            let rows = (0..<3).map { Row(name: "Ada <\($0)>") }
            last = rows[2]
            let controller = StubController(rows: 3) { DataCellProvider(prototype: "RowCell", for: $0, data: rows[$0.row]) }
            return try controller.renderedHTML(registry: registry)
        }()
        #expect(html.contains("Ada &lt;0&gt;</li>") && html.contains("Ada &lt;1&gt;</li>") && html.contains("Ada &lt;2&gt;</li>"))
        #expect(last == nil, "a recycled cell still holds the last row's data")
        let pooled = try TableView(registry: registry).dequeueReusableCell(
            PrototypeCell.self, withIdentifier: "RowCell", for: IndexPath(row: 0, section: 0))
        #expect(pooled.data == nil)
    }

    @Test func eachPrototypeIdentifierHasItsOwnCellsAndStyleClass() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("NoteCell", template: "n:{{t}}")
        try registry.registerPrototype("Badge", template: "b:{{t}}")
        let controller = StubController(rows: 4) {
            DataCellProvider(prototype: $0.row.isMultiple(of: 2) ? "NoteCell" : "Badge", for: $0, data: ["t": "\($0.row)"])
        }
        let html = try controller.renderedHTML(registry: registry)
        #expect(
            html.contains(
                """
                <li class="cell note" id="row-0-0">n:0</li>
                <li class="cell badge" id="row-0-1">b:1</li>
                <li class="cell note" id="row-0-2">n:2</li>
                <li class="cell badge" id="row-0-3">b:3</li>
                """))
        #expect(registry.statistics.cellsCreated == 2)
    }

    @Test func aPrototypeCellWithoutATemplateRendersNothing() throws {
        var html = HTMLWriter()
        try PrototypeCell().render(into: &html)
        #expect(html.count == 0)
    }
}
