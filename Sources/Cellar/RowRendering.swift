import TableKit

/// One row of a list rendered alone, as the page and the JSON draw it: its `<li>` element and its
/// JSON object, written by the same walk's sinks that write the page (``TableRenderer`` and
/// ``JSONTableSink``). A live list's patches carry these, so a row patched in is byte for byte
/// the row a reload would show.
struct RowRendering {
    let route: ListRoute
    let registry: ReuseRegistry
    let controller: any TableController
    /// One renderer (one table view, one pool of cells) for all the rows of a window's render.
    private let renderer: TableRenderer

    init(route: ListRoute, registry: ReuseRegistry, controller: any TableController, layout: TableLayout) {
        self.route = route
        self.registry = registry
        self.controller = controller
        let tableView = TableView(registry: registry, selectionBase: route.hasDetail ? route.href : nil)
        renderer = TableRenderer(controller: controller, tableView: tableView, layout: layout)
    }

    /// The `<li …>…</li>` of the row at `indexPath`, with its line break.
    func html(ofRowAt indexPath: IndexPath) throws -> [UInt8] {
        var html = HTMLWriter()
        try renderer.renderRow(at: indexPath, into: &html)
        return html.takeBytes()
    }

    /// The JSON object of the row at `indexPath`, as the list's JSON writes it in `rows`.
    func json(ofRowAt indexPath: IndexPath) throws -> [UInt8] {
        var sink = JSONTableSink(route: route, controller: controller, registry: registry)
        try sink.writeRow(at: indexPath)
        return sink.encoder.writer.takeBytes()
    }
}
