import ByteWriters
import TableKit

/// The sink a list in editing mode is walked into: the page's own rows (``HTMLTableSink``), each
/// with its editing controls after its cell, inside the row, so that a row and its controls are
/// one element; the row whose form is open written as that form instead of its cell; and each
/// section's insert row after its last row.
struct EditingTableSink: TableWalkSink, ~Copyable {
    var page: HTMLTableSink
    let controller: any EditableTableController
    let mode: EditingMode
    let listHref: String
    let registry: ReuseRegistry
    /// The number of columns in the columns layout, or nil in the cells layout.
    let columnCount: Int?

    var byteCount: Int { page.byteCount }

    mutating func openSection(_ section: TableWalk.Section) {
        page.openSection(section)
    }

    mutating func writeRow(at indexPath: IndexPath, identifier: consuming String, provider: DataCellProvider) throws {
        let identifier = consume identifier
        var controls = EditingControls(controller: controller, mode: mode, listHref: listHref, registry: registry)
        if mode.openForm?.row == identifier, mode.allowed.update, let form = controller.editingForm(forRowAt: indexPath) {
            try controls.writeOpenRow(identifier, at: indexPath, form: form, columnCount: columnCount, into: &page.html)
            return
        }
        let start = page.html.count
        try page.writeRow(at: indexPath, identifier: copy identifier, provider: provider)
        // The row's closing tag and line break (`</li>\n` or `</tr>\n`) make way for its controls.
        let closing: [UInt8] = Array((columnCount == nil ? "</li>\n" : "</tr>\n").utf8)
        let endsWithClosing = page.html.withUnsafeBytes { written in
            written.count - start > closing.count && written.suffix(closing.count).elementsEqual(closing)
        }
        // A row written as its error cell keeps no controls: there is no row to act on.
        guard endsWithClosing, controller.canEditRow(at: indexPath)
        else { return }
        page.html.truncate(to: page.html.count - closing.count)
        if columnCount != nil { page.html.raw("<td class=\"editing-cell\">") }
        controls.writeControls(forRowAt: indexPath, identifier: identifier, into: &page.html)
        page.html.raw(columnCount == nil ? "</li>\n" : "</td></tr>\n")
    }

    mutating func closeSection(_ section: TableWalk.Section) {
        if mode.allowed.insert, let form = controller.insertForm(inSection: section.index) {
            var controls = EditingControls(controller: controller, mode: mode, listHref: listHref, registry: registry)
            // An insert row's failure is the form's own, shown with it; it never stops the page.
            try? controls.writeInsertRow(section, form: form, columnCount: columnCount, into: &page.html)
        }
        page.closeSection(section)
    }
}

/// A watched window in editing mode (``WindowVersion``) keeps each row with its controls, so that
/// a patched row can still be changed; the insert rows are the page's own and never patched.
extension EditingTableSink: PageRowSink {
    mutating func takeWritten() -> [UInt8] { page.takeWritten() }

    mutating func discardWritten() { page.discardWritten() }
}
