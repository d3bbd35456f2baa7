import ByteWriters

/// Writes a table's sections and rows, in order, into an ``HTMLWriter``, and can stop when the
/// writer holds enough bytes and carry on later. That is what lets the HTTP layer stream a
/// million rows in memory bounded by its chunk size.
///
/// ```swift
/// var renderer = TableRenderer(controller: controller, tableView: TableView(registry: registry))
/// while try !renderer.render(into: &html, pausingAt: 64 * 1024) {
///     send(html.bytes); html.removeAll()
/// }
/// ```
///
/// Markup per section: `<section class="table-section" data-section="ID">`, an optional
/// `<h2 class="section-header" id="section-ID-header">`, `<ul class="rows" id="section-ID-rows">`
/// with one `<li class="cell …" id="row-…">` per row, and an optional
/// `<p class="section-footer" id="section-ID-footer">`, ID being the section's identifier
/// (``HTMLTableSink`` says how it is written). The sections and rows are a
/// ``TableWalk``'s; ``renderRow(at:into:)`` writes one row alone, byte for byte as the page has it.
public struct TableRenderer {
    public var controller: any TableController { walk.controller }
    public let tableView: TableView
    public var layout: TableLayout { walk.layout }
    /// The flat rows to render (all of them unless paging).
    public var window: Range<Int> { walk.window }

    private var walk: TableWalk
    /// The table view's ``TableView/selectionBase`` when the render began, which every row links
    /// under (read once, not per row).
    private let linkBase: String?
    /// The number of columns in the columns layout, nil in the cells layout.
    private let columnCount: Int?

    /// - Parameter style: the layout, when the caller has asked the controller for it already
    ///   (``TableController/style`` by default).
    public init(
        controller: any TableController, tableView: TableView, layout: TableLayout? = nil, window: Range<Int>? = nil, style: TableStyle? = nil
    ) {
        walk = TableWalk(controller: controller, layout: layout, window: window)
        self.tableView = tableView
        linkBase = tableView.selectionBase
        columnCount = (style ?? controller.style).columns?.count
    }

    /// Whether everything has been written.
    public var isFinished: Bool { walk.isFinished }

    /// Writes until done, or until the writer holds `byteLimit` bytes or more. Returns whether
    /// it is done. A throwing controller or cell stops the render; the error says why.
    public mutating func render(into html: inout HTMLWriter, pausingAt byteLimit: Int = .max) throws -> Bool {
        try withSink(writingInto: &html) { sink in try walk.walk(into: &sink, pausingAt: byteLimit) }
    }

    /// Writes the row at `indexPath` alone, `<li class="cell …" id="row-…">…</li>` (a `<tr>` in the
    /// columns layout) and its line break, as ``render(into:pausingAt:)`` writes it in the page: for a change to that row.
    public func renderRow(at indexPath: IndexPath, into html: inout HTMLWriter) throws {
        let controller = walk.controller
        try withSink(writingInto: &html) { sink in try TableWalk.walkRow(at: indexPath, of: controller, into: &sink) }
    }

    /// Lends `body` a sink that writes into `html` (moved in and back out, not copied).
    private func withSink<Result>(writingInto html: inout HTMLWriter, _ body: (inout HTMLTableSink) throws -> Result) throws -> Result {
        var sink = HTMLTableSink(html: HTMLWriter(), tableView: tableView, linkBase: linkBase, columnCount: columnCount)
        swap(&sink.html, &html)
        defer { swap(&sink.html, &html) }
        return try body(&sink)
    }
}
