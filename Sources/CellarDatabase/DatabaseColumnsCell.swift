import TableKit

/// A database row in the columns layout (``TableStyle/columns(_:)``): the title column first, as
/// the row's header cell linking to its detail, then every other shown column in its own cell,
/// in the order of the list's header (``TableList/columnOrder``). Numbers are marked to align,
/// NULL is marked as such, and a foreign key links to the row it references.
public final class DatabaseColumnsCell: TableViewCell, ConfigurableCell {
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
        let list = data.page.list
        let rows = data.page.rows
        let title = rows.value(row: data.row, column: list.titleColumn)
        html.raw("<th scope=\"row\"")
        switch title {
        case .null: html.raw(" class=\"null\">")
        case .integer, .real: html.raw(" class=\"num\">")
        case .text, .blob: html.raw(">")
        }
        if let selection {
            html.raw("<a class=\"row-link\" href=\"")
            selection.write(into: &html)
            html.raw("\">")
        }
        if case .text(let range) = title, range.isEmpty {
            // A link must name where it goes: an empty title is shown as such.
            html.raw("<span class=\"empty\">(empty)</span>")
        } else {
            DatabaseRowCell.writeValue(title, of: rows, into: &html)
        }
        if selection != nil { html.raw("</a>") }
        html.raw("</th>")
        for column in list.columnOrder.dropFirst() {
            html.raw("<td")
            DatabaseRowCell.writeAttributesAndValue(of: data, column: column, into: &html)
            html.raw("</td>")
        }
    }
}
