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
/// Markup per section: `<section class="table-section" data-section="N">`, an optional
/// `<h2 class="section-header">`, `<ul class="rows">` with one `<li class="cell …" id="row-…">`
/// per row, and an optional `<p class="section-footer">`.
public struct TableRenderer {
    public let controller: any TableController
    public let tableView: TableView
    public let layout: TableLayout
    /// The flat rows to render (all of them unless paging).
    public let window: Range<Int>

    private enum Phase {
        case sectionOpen
        case rows
        case sectionClose
        case finished
    }

    /// The table view's ``TableView/selectionBase`` when the render began, which every row links
    /// under (read once, not per row), and its link prefix (`base/`, escaped) for `HTMLWriter.RowLink`.
    private let linkBase: String?
    private let linkPrefix: [UInt8]
    private var slices: [TableLayout.Slice]
    private var sliceIndex = 0
    private var row = 0
    private var phase = Phase.sectionOpen

    public init(controller: any TableController, tableView: TableView, layout: TableLayout? = nil, window: Range<Int>? = nil) {
        self.controller = controller
        self.tableView = tableView
        let layout = layout ?? TableLayout(controller)
        self.layout = layout
        let total = layout.totalNumberOfRows
        let window = window.map { $0.clamped(to: 0..<total) } ?? 0..<total
        self.window = window
        slices = layout.slices(in: window)
        linkBase = tableView.selectionBase
        var prefix = HTMLWriter()
        if let linkBase {
            prefix.attributeText(linkBase)
            prefix.raw("/")
        }
        linkPrefix = prefix.takeBytes()
    }

    /// Whether everything has been written.
    public var isFinished: Bool { phase == .finished }

    /// Writes until done, or until the writer holds `byteLimit` bytes or more. Returns whether
    /// it is done. A throwing controller or cell stops the render; the error says why.
    public mutating func render(into html: inout HTMLWriter, pausingAt byteLimit: Int = .max) throws -> Bool {
        // Lent to the rows' links for the call (see `renderRow`); an array the renderer keeps.
        try linkPrefix.withUnsafeBytes { prefix in try render(into: &html, pausingAt: byteLimit, linkPrefix: prefix) }
    }

    private mutating func render(into html: inout HTMLWriter, pausingAt byteLimit: Int, linkPrefix: UnsafeRawBufferPointer) throws -> Bool {
        while true {
            switch phase {
            case .finished:
                return true
            case .sectionOpen:
                guard sliceIndex < slices.count else {
                    phase = .finished
                    continue
                }
                openSection(slices[sliceIndex], into: &html)
                row = slices[sliceIndex].rows.lowerBound
                phase = .rows
            case .rows:
                let slice = slices[sliceIndex]
                // The controller is opened once for the run of rows: each row then calls it
                // directly, not through the existential's box (a projection call per use).
                row = try renderRows(of: controller, in: slice, from: row, into: &html, pausingAt: byteLimit, linkPrefix: linkPrefix)
                guard row >= slice.rows.upperBound else { return false }
                phase = .sectionClose
            case .sectionClose:
                closeSection(slices[sliceIndex], into: &html)
                sliceIndex += 1
                phase = .sectionOpen
            }
            if html.count >= byteLimit { return phase == .finished }
        }
    }

    private func openSection(_ slice: TableLayout.Slice, into html: inout HTMLWriter) {
        let header = controller.titleForHeader(inSection: slice.section)
        html.raw("<section class=\"table-section\"")
        html.attribute("data-section", slice.section)
        if header != nil {
            html.raw(" aria-labelledby=\"section-")
            html.text(slice.section)
            html.raw("-header\"")
        }
        html.raw(">\n")
        if let header {
            html.raw("<h2 class=\"section-header\" id=\"section-")
            html.text(slice.section)
            html.raw("-header\">")
            html.text(header)
            html.raw("</h2>\n")
        }
        html.raw("<ul class=\"rows\"")
        html.attribute("data-section", slice.section)
        html.raw(">\n")
    }

    private func closeSection(_ slice: TableLayout.Slice, into html: inout HTMLWriter) {
        html.raw("</ul>\n")
        if let footer = controller.titleForFooter(inSection: slice.section) {
            html.raw("<p class=\"section-footer\">")
            html.text(footer)
            html.raw("</p>\n")
        }
        html.raw("</section>\n")
    }

    /// Writes the rows of `slice` from `first` until the slice ends or the writer holds
    /// `byteLimit` bytes; returns the next row to write.
    private func renderRows<Controller: TableController>(
        of controller: Controller, in slice: TableLayout.Slice, from first: Int, into html: inout HTMLWriter, pausingAt byteLimit: Int,
        linkPrefix: UnsafeRawBufferPointer
    ) throws -> Int {
        var row = first
        while row < slice.rows.upperBound {
            try renderRow(IndexPath(row: row, section: slice.section), of: controller, into: &html, linkPrefix: linkPrefix)
            row += 1
            if html.count >= byteLimit { break }
        }
        return row
    }

    @inline(__always) private func renderRow<Controller: TableController>(
        _ indexPath: IndexPath, of controller: Controller, into html: inout HTMLWriter, linkPrefix: UnsafeRawBufferPointer
    ) throws {
        let provider = controller.cellProvider(forRowAt: indexPath)
        let identifier = controller.identifier(forRowAt: indexPath)
        // The selection is given to the cell once the identifier has been written, so that it can
        // take the identifier over instead of holding a copy.
        let cell = try provider.dequeueCell(from: tableView, selection: nil)
        if let entry = cell.poolEntryReference {
            entry._withUnsafeGuaranteedRef { html.append($0.rowOpening) }
        } else {
            html.raw("<li class=\"cell\" id=\"row-")
        }
        let encodedStart = html.count
        html.pathSegment(identifier)
        // The row's link repeats its identifier: the cell copies it from here (`linkBase`, and the
        // identifier in the cell's selection, stay alive until the row is written, which is what
        // lets the writer name them by their bits).
        if let linkBase {
            html.rowLink = HTMLWriter.RowLink(
                base: HTMLWriter.StringBits(linkBase), identifier: HTMLWriter.StringBits(identifier), prefix: linkPrefix,
                encoded: encodedStart..<html.count)
            cell.selection = RowSelection(base: linkBase, identifier: consume identifier)
        }
        html.raw("\">")
        do {
            try provider.configureAndRender(cell, into: &html)
        } catch {
            html.rowLink = nil
            tableView.recycle(cell)
            throw error
        }
        html.rowLink = nil
        html.raw("</li>\n")
        // The cell's last use: the pool takes it over without another retain.
        tableView.recycle(consuming: cell)
    }
}
