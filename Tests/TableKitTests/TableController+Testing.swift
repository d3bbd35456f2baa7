import TableKit

/// A controller whose shape and cells a test spells out.
struct StubController: TableController {
    struct Section {
        var header: String?
        var footer: String?
        var rows: Int
    }

    var title = "Stub"
    var sections: [Section]
    var provider: (IndexPath) -> DataCellProvider
    var rowIdentifier: (IndexPath) -> String = { "\($0.section)-\($0.row)" }
    /// The sections' identifiers; nil for the protocol's default (the number).
    var sectionIdentifiers: [String]?

    init(sections: [Section], provider: @escaping (IndexPath) -> DataCellProvider) {
        self.sections = sections
        self.provider = provider
    }

    init(rows: Int, provider: @escaping (IndexPath) -> DataCellProvider) {
        self.init(sections: [Section(rows: rows)], provider: provider)
    }

    var numberOfSections: Int { sections.count }
    func numberOfRows(inSection section: Int) -> Int { sections[section].rows }
    func titleForHeader(inSection section: Int) -> String? { sections[section].header }
    func titleForFooter(inSection section: Int) -> String? { sections[section].footer }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider { provider(indexPath) }
    func identifier(forRowAt indexPath: IndexPath) -> String { rowIdentifier(indexPath) }
    func identifier(forSection section: Int) -> String { sectionIdentifiers?[section] ?? String(section) }
}

extension TableController {
    /// Renders the whole list (or a window of it) in one go, through a table view that is
    /// released before this returns, so its pool goes back to the registry.
    func renderedHTML(registry: ReuseRegistry, selectionBase: String? = nil, window: Range<Int>? = nil) throws -> String {
        let tableView = TableView(registry: registry, selectionBase: selectionBase)
        var renderer = TableRenderer(controller: self, tableView: tableView, window: window)
        var html = HTMLWriter()
        let finished = try renderer.render(into: &html)
        precondition(finished, "render(into:) without a byte limit must finish")
        return html.string
    }
}
