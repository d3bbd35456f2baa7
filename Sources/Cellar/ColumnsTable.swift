import ByteWriters
import TableKit

/// The `<table>` around a list's rows in the columns layout (``TableStyle/columns(_:)``): a
/// scrolling frame, and a header row whose column headers sort the list.
///
/// A sortable header is a link to the next order of its cycle (ascending, descending, none), and
/// the column the list is sorted by says so with `aria-sort` and an arrow. In editing mode each row
/// has one more cell, its controls, which a last header names.
enum ColumnsTable {
    static func writeOpening(_ columns: [TableColumn], title: String, editing: Bool = false, into html: inout HTMLWriter) {
        html.raw("<div class=\"table-scroll\" tabindex=\"0\" role=\"region\"")
        html.attribute("aria-label", title)
        html.raw("><table class=\"columns\"><thead><tr>")
        for column in columns {
            html.raw("<th scope=\"col\"")
            if column.isNumeric { html.raw(" class=\"num\"") }
            if let order = column.sortOrder {
                html.raw(" aria-sort=\"")
                html.raw(order == .ascending ? "ascending" : "descending")
                html.raw("\"")
            }
            html.raw(">")
            if let link = column.sortLink {
                html.raw("<a class=\"sort\"")
                html.attribute("href", link)
                html.raw(">")
                html.text(column.title)
                switch column.sortOrder {
                case .ascending: html.raw("<span class=\"sort-arrow\" aria-hidden=\"true\">▲</span>")
                case .descending: html.raw("<span class=\"sort-arrow\" aria-hidden=\"true\">▼</span>")
                case nil: break
                }
                html.raw("</a>")
            } else {
                html.text(column.title)
            }
            html.raw("</th>")
        }
        if editing { html.raw("<th scope=\"col\" class=\"editing-cell\"><span class=\"visually-hidden\">Changes</span></th>") }
        html.raw("</tr></thead>\n")
    }

    static func writeClosing(into html: inout HTMLWriter) {
        html.raw("</table></div>\n")
    }
}
