/// A ``TableWalk``'s HTML: the sink ``TableRenderer`` walks a table into. Per section
/// `<section class="table-section" data-section="ID">`, an optional `<h2 class="section-header"
/// id="section-ID-header">`, `<ul class="rows" id="section-ID-rows">` with one
/// `<li class="cell …" id="row-…">` per row, and an optional `<p class="section-footer"
/// id="section-ID-footer">`, where ID is the section's identifier
/// (``TableController/identifier(forSection:)``, its number by default): escaped in
/// `data-section`, percent-encoded in the ids as a row's identifier is in `row-…`, so that an id
/// never holds a space or a quote. The ids are what "Load more" and a live list's patches target. A row's cell is dequeued from the table view, configured and
/// rendered by its provider, and recycled, also when it throws.
///
/// In the columns layout (``TableStyle/columns(_:)``) a section is instead a
/// `<tbody class="rows" id="section-ID-rows" data-section="ID">` whose first row is its header
/// (`<tr class="section-header"><th scope="rowgroup" id="section-ID-header">`), with one
/// `<tr class="cell …" id="row-…">` per row, and its footer a row of a `<tbody class="section-footer">`
/// after it, so that rows appended to the section's own `<tbody>` land before the footer. The
/// `<table>` and its header row are the list's, written around the walk.
///
/// Public so that a sink of another module can wrap it and keep what it writes for each row (a live
/// list's version of a window, in Cellar).
public struct HTMLTableSink: TableWalkSink, ~Copyable {
    /// What the sink has written.
    public var html: HTMLWriter
    let tableView: TableView
    /// The path rows link under (the table view's ``TableView/selectionBase`` when the render began).
    let linkBase: String?
    /// The number of columns in the columns layout, or nil in the cells layout.
    let columnCount: Int?
    /// Whether rows are `<tr>` (the columns layout) rather than `<li>`, and their closing tag:
    /// chosen once, not per row. Each pool entry holds both openings, so a row writes one whole.
    private let rowTag: (opensTableRow: Bool, closing: StaticString)

    init(html: consuming HTMLWriter, tableView: TableView, linkBase: String?, columnCount: Int?) {
        self.html = html
        self.tableView = tableView
        self.linkBase = linkBase
        self.columnCount = columnCount
        rowTag = columnCount == nil ? (false, "</li>\n") : (true, "</tr>\n")
    }

    public var byteCount: Int { html.count }

    public mutating func openSection(_ section: TableWalk.Section) {
        if let columnCount {
            openColumnsSection(section, columnCount: columnCount)
            return
        }
        html.raw("<section class=\"table-section\"")
        html.attribute("data-section", section.identifier)
        if section.header != nil {
            html.raw(" aria-labelledby=\"")
            writeElementID(of: section, "-header\"")
        }
        html.raw(">\n")
        if let header = section.header {
            writeCaption(header, of: section, "<h2 class=\"section-header\" id=\"", "-header\">", "</h2>\n")
        }
        // The list's id is what a live list appends a row to when the section has no other.
        html.raw("<ul class=\"rows\" id=\"")
        writeElementID(of: section, "-rows\"")
        html.attribute("data-section", section.identifier)
        html.raw(">\n")
    }

    public mutating func closeSection(_ section: TableWalk.Section) {
        if let columnCount {
            closeColumnsSection(section, columnCount: columnCount)
            return
        }
        html.raw("</ul>\n")
        if let footer = section.footer {
            writeCaption(footer, of: section, "<p class=\"section-footer\" id=\"", "-footer\">", "</p>\n")
        }
        html.raw("</section>\n")
    }

    private mutating func openColumnsSection(_ section: TableWalk.Section, columnCount: Int) {
        html.raw("<tbody class=\"rows\" id=\"")
        writeElementID(of: section, "-rows\"")
        html.attribute("data-section", section.identifier)
        html.raw(">\n")
        if let header = section.header {
            html.raw("<tr class=\"section-header\"><th scope=\"rowgroup\" colspan=\"")
            html.text(columnCount)
            writeCaption(header, of: section, "\" id=\"", "-header\">", "</th></tr>\n")
        }
    }

    private mutating func closeColumnsSection(_ section: TableWalk.Section, columnCount: Int) {
        html.raw("</tbody>\n")
        if let footer = section.footer {
            html.raw("<tbody class=\"section-footer\"><tr><td colspan=\"")
            html.text(columnCount)
            writeCaption(footer, of: section, "\" id=\"", "-footer\">", "</td></tr></tbody>\n")
        }
    }

    /// A section's header or footer: `opening`, the element's id, `idSuffix`, the text, `closing`.
    private mutating func writeCaption(
        _ text: String, of section: TableWalk.Section, _ opening: StaticString, _ idSuffix: StaticString, _ closing: StaticString
    ) {
        html.raw(opening)
        writeElementID(of: section, idSuffix)
        html.text(text)
        html.raw(closing)
    }

    /// `section-{identifier}` and `suffix` (`-rows"`): the ids of a section's elements, its
    /// identifier percent-encoded as a row's is in `row-{id}`.
    private mutating func writeElementID(of section: TableWalk.Section, _ suffix: StaticString) {
        html.raw("section-")
        html.pathSegment(section.identifier)
        html.raw(suffix)
    }

    /// `<li class="cell …" id="row-…">`, the cell, `</li>` (`<tr …>…</tr>` in the columns layout);
    /// or, when the cell cannot be made and the table view has a ``TableView/rowErrorHandler``, the
    /// row's error cell.
    @inline(__always) public mutating func writeRow(at indexPath: IndexPath, identifier: consuming String, provider: DataCellProvider) throws {
        // The selection is given to the cell once the identifier has been written, so that it can
        // take the identifier over instead of holding a copy.
        let identifier = consume identifier
        guard let row = try dequeueOrWriteErrorRow(provider, at: indexPath, identifier: identifier) else { return }
        let rowStart = html.count
        html.append(rowTag.opensTableRow ? row.entry.tableRowOpening : row.entry.rowOpening)
        html.pathSegment(identifier)
        // An empty identifier (a database row whose key is NULL) names no detail: `base/` is the
        // list itself, so such a row has no link.
        if let linkBase, !identifier.isEmpty {
            row.cell.storedSelection = RowSelection(base: linkBase, identifier: consume identifier)
        }
        html.raw("\">")
        do {
            try provider.configureAndRender(row.cell, into: &html)
        } catch {
            let idStart = rowStart + row.entry.rowOpening.count
            tableView.recycle(row)
            try replaceFailedRow(startingAt: rowStart, idStart: idStart, at: indexPath, error: error)
            return
        }
        html.raw(rowTag.closing)
        tableView.recycle(row)
    }
}

extension HTMLTableSink {
    /// A sink that writes into a writer of its own, its rows linking under the table view's
    /// ``TableView/selectionBase``, laid out in `style`.
    public init(tableView: TableView, style: TableStyle = .cells) {
        self.init(html: HTMLWriter(), tableView: tableView, linkBase: tableView.selectionBase, columnCount: style.columns?.count)
    }

    /// The row's cell from the table view, or nil once the row's error cell is written in its
    /// place (when the cell cannot be made and the table view has a handler).
    @inline(__always)
    private mutating func dequeueOrWriteErrorRow(_ provider: DataCellProvider, at indexPath: IndexPath, identifier: borrowing String) throws
        -> DequeuedCell?
    {
        do {
            return try provider.dequeueCell(from: tableView, selection: nil)
        } catch {
            try writeUnmadeRow(at: indexPath, identifier: copy identifier, error: error)
            return nil
        }
    }

    /// The error cell of a row whose cell could not be dequeued, out of the row's own path.
    @inline(never)
    private mutating func writeUnmadeRow(at indexPath: IndexPath, identifier: String, error: any Error) throws {
        try writeErrorRow(at: indexPath, error: error) { $0.pathSegment(identifier) }
    }

    /// Takes back what a row whose cell threw had written from `rowStart` on, and writes its error
    /// cell instead, under the same id: the identifier as the opening had it, percent-encoded (so
    /// it ends at the first quote). Without a handler, `error` stops the render.
    @inline(never)
    private mutating func replaceFailedRow(startingAt rowStart: Int, idStart: Int, at indexPath: IndexPath, error: any Error) throws {
        guard tableView.rowErrorHandler != nil else { throw error }
        let written = html.bytes
        let idEnd = written[idStart...].firstIndex(of: UInt8(ascii: "\"")) ?? idStart
        html.truncate(to: rowStart)
        try writeErrorRow(at: indexPath, error: error) { $0.unsafeRaw(bytes: written[idStart..<idEnd]) }
    }

    /// `<li class="cell cell-error" id="row-…"><p class="cell-error-message">…</p></li>` (in the
    /// columns layout a `<tr>` whose one cell spans the columns), the message the table view's
    /// handler gives; without a handler, `error` stops the render.
    private mutating func writeErrorRow(at indexPath: IndexPath, error: any Error, writeID: (inout HTMLWriter) -> Void) throws {
        guard let handler = tableView.rowErrorHandler else { throw error }
        let message = handler.messageForFailedRow(at: indexPath, error: error)
        html.raw(columnCount == nil ? "<li" : "<tr")
        html.raw(" class=\"cell cell-error\" id=\"row-")
        writeID(&html)
        if let columnCount {
            html.raw("\"><td colspan=\"")
            html.text(columnCount)
            html.raw("\"><p class=\"cell-error-message\">")
            html.text(message)
            html.raw("</p></td></tr>\n")
        } else {
            html.raw("\"><p class=\"cell-error-message\">")
            html.text(message)
            html.raw("</p></li>\n")
        }
    }
}
