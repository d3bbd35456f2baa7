import TableKit

/// The cell every database row gets unless configured otherwise: the title column's value as the
/// link to the row's detail, then every other column as a labelled field. Numbers are marked to
/// align, NULL is shown as such, and a foreign key links to the row it references.
public final class DatabaseRowCell: TableViewCell, ConfigurableCell {
    private var data: DatabaseRow?

    public required init() {}

    public func configure(with data: DatabaseRow) {
        self.data = data
    }

    public override func prepareForReuse() {
        data = nil
    }

    public override func render(into html: inout HTMLWriter) throws {
        guard let data else { return }
        let page = data.page
        let list = page.list
        let rows = page.rows
        html.openSelectionLink(selection)
        let title = rows.value(row: data.row, column: list.titleColumn)
        if case .null = title {
            html.raw("<span class=\"cell-title null\">")
        } else {
            html.raw("<span class=\"cell-title\">")
        }
        Self.writeValue(title, of: rows, into: &html)
        html.raw("</span>")
        html.closeSelectionLink(selection)
        html.raw("<dl class=\"fields\">")
        for column in list.shownColumns where column != list.titleColumn {
            html.unsafeRaw(list.fieldOpenings[column])
            Self.writeAttributesAndValue(of: data, column: column, into: &html)
            html.raw("</dd></div>")
        }
        html.raw("</dl>")
    }

    /// The rest of a value's element after its tag name — ` class="num">` for a number,
    /// ` class="null">` for NULL — then the value: a foreign key as a link to the row it
    /// references, named by that row's label.
    @inline(__always) static func writeAttributesAndValue(of data: DatabaseRow, column: Int, into html: inout HTMLWriter) {
        let page = data.page
        let rows = page.rows
        let value = rows.value(row: data.row, column: column)
        let links = page.links(column: column)
        let label = links ? page.linkLabel(row: data.row, column: column) : nil
        switch label == nil ? value : .text(0..<0) {
        case .null: html.raw(" class=\"null\">")
        case .integer, .real: html.raw(" class=\"num\">")
        case .text, .blob: html.raw(">")
        }
        if links, let link = page.link(row: data.row, column: column) {
            html.raw("<a")
            html.attribute("href", link)
            html.raw(">")
            if let label {
                html.text(label)
            } else {
                writeValue(value, of: rows, into: &html)
            }
            html.raw("</a>")
        } else {
            writeValue(value, of: rows, into: &html)
        }
    }

    static func writeValue(_ value: FetchedRows.Value, of rows: FetchedRows, into html: inout HTMLWriter) {
        switch value {
        case .null: html.raw("NULL")
        case .integer(let integer): html.text(Int(integer))
        case .real(let real): html.text(DatabaseValue.text(for: real))
        case .text(let range): rows.withBytes(range) { html.text(utf8: $0) }
        case .blob(let range):
            html.raw("(")
            html.text(range.count)
            html.raw("-byte blob)")
        }
    }
}
