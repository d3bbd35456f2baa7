import Cellar
import TableKit

/// The sort control of a list in the cells layout, which has no column headers to click: a
/// disclosure of links, as a `UIMenu` of sort orders is a button's — the list's own order, then
/// each column ascending and descending, the one in force marked (`aria-current`) and named in
/// the summary. Links, so it works without JavaScript; several columns stay possible through the URL.
extension DatabaseListController {
    func writeSortMenu(into html: inout HTMLWriter) {
        guard !list.usesColumns else { return }
        let current = context.sort
        var base = navigationQuery
        base.removeAll { $0.name == "sort" }
        html.raw("<details class=\"sort-menu\"><summary>Sort: <span class=\"current\">")
        html.text(current.isEmpty ? "the list’s own order" : sortLabel(current))
        html.raw("</span></summary><ul aria-label=\"Sort by\">")
        writeSortChoice("The list’s own order", query: base, isCurrent: current.isEmpty, into: &html)
        for column in list.columnOrder {
            let name = list.columns[column].name
            for ascending in [true, false] {
                var query = base
                query.append(name: "sort", value: ascending ? name : "-" + name)
                writeSortChoice(
                    sortLabel([SortKey(name, ascending: ascending)]), query: query,
                    isCurrent: current.count == 1 && current[0].name == name && current[0].ascending == ascending, into: &html)
            }
        }
        html.raw("</ul></details>\n")
    }

    private func writeSortChoice(_ label: String, query: QueryItems, isCurrent: Bool, into html: inout HTMLWriter) {
        html.raw("<li><a")
        html.attribute("href", href(query))
        if isCurrent { html.raw(" aria-current=\"true\"") }
        html.raw(">")
        html.text(label)
        html.raw("</a></li>")
    }

    /// "price, descending", "name, ascending, then vintage, descending".
    private func sortLabel(_ keys: [SortKey]) -> String {
        keys.map { key in
            let label = list.columnIndex(named: key.name).map { list.labels[$0] } ?? key.name
            return label + (key.ascending ? ", ascending" : ", descending")
        }.joined(separator: ", then ")
    }
}
