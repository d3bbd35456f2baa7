import TableKit

/// One row of a database list, as a cell's data: the page it was fetched with and its place.
///
/// A prototype template reads its columns by name (`{{title}}`, `{{price}}`): text as text,
/// integers as numbers, NULL as missing (so `{{#discount}}…{{/discount}}` shows only when there is
/// one), and a foreign key as its row's label.
public struct DatabaseRow: PrototypeData {
    let page: PageRows
    let row: Int

    /// The value of the column named `column` (``DatabaseValue/null`` for a column the table does not have).
    public subscript(column: String) -> DatabaseValue {
        guard let index = page.list.columnIndex(named: column) else { return .null }
        return page.rows.databaseValue(row: row, column: index)
    }

    /// The column's value as text: numbers in decimal, a foreign key as its row's label; nil for NULL.
    public func text(_ column: String) -> String? {
        guard let index = page.list.columnIndex(named: column) else { return nil }
        return page.linkLabel(row: row, column: index) ?? page.rows.string(row: row, column: index)
    }

    /// The row's identifier: its detail's last path segment.
    public var identifier: String { page.identifier(ofRow: row) }

    public func prototypeValue(forKey key: String) -> PrototypeValue {
        guard let column = page.list.columnIndex(named: key) else { return .missing }
        if let label = page.linkLabel(row: row, column: column) { return .text(label) }
        switch page.rows.value(row: row, column: column) {
        case .null: return .missing
        case .integer(let integer): return .number(Int(integer))
        default: return page.rows.string(row: row, column: column).map { .text($0) } ?? .missing
        }
    }
}

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
        html.raw("</span></a><dl class=\"fields\">")
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
