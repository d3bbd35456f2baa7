import Cellar
import MicroHTTP
import TableKit

/// What a database list's page shows above its rows — how many rows match, how they are sorted,
/// the filters and search in force as chips that remove them, a form that adds a filter, and
/// links to the same rows as JSON and CSV — and its column headers, which sort.
///
/// Every control is a link or a GET form: it all works without JavaScript.
extension DatabaseListController {
    public var style: TableStyle {
        guard list.usesColumns, context.rowIdentifier == nil else { return .cells }
        // The order's first term: asked for, configured, or else the key's.
        let keyColumn = list.keyColumns.count == 1 && list.keyColumns[0] < list.columns.count ? list.keyColumns[0] : nil
        let primary = context.sort.first ?? list.defaultSort.first ?? keyColumn.map { SortKey(list.columns[$0].name) }
        return .columns(
            list.columnOrder.map { column in
                let name = list.columns[column].name
                let order: TableColumn.SortOrder? = primary?.name == name ? (primary!.ascending ? .ascending : .descending) : nil
                var query = navigationQuery
                query.removeAll { $0.name == "sort" }
                switch order {
                case .ascending: query.append(name: "sort", value: "-" + name)
                case .descending: break
                case nil: query.append(name: "sort", value: name)
                }
                return TableColumn(
                    list.labels[column], isNumeric: list.links[column] == nil && [.integer, .real, .numeric].contains(list.columns[column].affinity),
                    sortOrder: order, sortLink: href(query))
            })
    }

    public func renderTableHeader(into html: inout HTMLWriter) {
        guard context.rowIdentifier == nil else { return }
        html.raw("<div class=\"list-tools\">\n")
        writeFilterForm(into: &html)
        html.raw("<p class=\"list-status\">")
        html.text(matchingRows)
        html.raw(" · ")
        html.text(orderDescription)
        html.raw(" · ")
        ListFormat.writeLinks(toListAt: ListRoute.percentEncodedPath(list.path), query: navigationQuery, into: &html)
        html.raw("</p>\n")
        writeSortMenu(into: &html)
        writeChips(into: &html)
        html.raw("</div>\n")
        if let disclosure = lists.schemaDisclosures[list.schema.name] { html.unsafeRaw(disclosure) }
        writeFacets(into: &html)
    }

    // MARK: The status line

    /// "344 rows", "12 rows match", "at least 10,000 rows match".
    private var matchingRows: String {
        let page = fetchedPage
        let number = page.total.formatted()
        let rows = page.totalIsExact ? (page.total == 1 ? "1 row" : "\(number) rows") : "at least \(number) rows"
        return context.filters.isEmpty && context.searchTerm == nil ? rows.prefix(1).uppercased() + rows.dropFirst() : rows + " match"
    }

    /// "sorted by price, descending, then by name".
    private var orderDescription: String {
        let keys = context.sort.isEmpty ? list.defaultSort : context.sort
        var terms = keys.compactMap { key -> String? in
            guard let column = list.columnIndex(named: key.name) else { return nil }
            return list.labels[column] + (key.ascending ? "" : ", descending")
        }
        if terms.isEmpty {
            guard list.hasKey, let key = list.keyColumns.first else { return "in the view’s own order" }
            terms = [key < list.columns.count ? list.labels[key] : "rowid"]
        }
        return "sorted by " + terms.joined(separator: ", then by ")
    }

    // MARK: Chips

    private func writeChips(into html: inout HTMLWriter) {
        let filters = context.filters
        guard !filters.isEmpty || context.searchTerm != nil else { return }
        html.raw("<ul class=\"chips\" aria-label=\"Filters\">")
        if let term = context.searchTerm {
            var query = navigationQuery
            query.removeAll { $0.name == "q" }
            writeChip("Search: “\(term)”", removing: query, into: &html)
        }
        for (index, filter) in filters.enumerated() {
            // The chip's own item goes: the same filter may be given twice.
            let occurrence = filters[..<index].filter { $0.name == filter.name && $0.value == filter.value }.count
            var query = navigationQuery
            var seen = 0
            query.removeAll { item in
                guard item.name == filter.name, item.value == filter.value else { return false }
                seen += 1
                return seen == occurrence + 1
            }
            writeChip(chipText(filter), removing: query, into: &html)
        }
        if filters.count + (context.searchTerm == nil ? 0 : 1) > 1 {
            var query = navigationQuery
            query.removeAll { item in item.name == "q" || filters.contains { $0.name == item.name } }
            html.raw("<li><a class=\"clear\"")
            html.attribute("href", href(query))
            html.raw(">Clear all</a></li>")
        }
        html.raw("</ul>\n")
    }

    private func writeChip(_ text: String, removing query: QueryItems, into html: inout HTMLWriter) {
        html.raw("<li class=\"chip\">")
        html.text(text)
        html.raw(" <a")
        html.attribute("href", href(query))
        html.attribute("aria-label", "Remove " + text)
        html.raw("><span aria-hidden=\"true\">×</span></a></li>")
    }

    /// "price > 10", "name contains (any case) “wine”", "region is NULL".
    private func chipText(_ filter: (name: String, value: String)) -> String {
        var column = filter.name
        var operation = "exact"
        if list.columnIndex(named: column) == nil, let separator = column.ranges(of: "__").last {
            operation = String(column[separator.upperBound...])
            column = String(column[..<separator.lowerBound])
        }
        let index = list.columnIndex(named: column)
        let label = index.map { list.labels[$0] } ?? column
        if operation == "isnull" { return label + (filter.value == "0" || filter.value == "false" ? " is not NULL" : " is NULL") }
        let symbol = FilterOperator.label(of: operation, for: index.map { FilterOperator.Kind(list.columns[$0]) } ?? .other)
        return "\(label) \(symbol) “\(TableQuery.shown(filter.value))”"
    }

    // MARK: The filter form

    private func writeFilterForm(into html: inout HTMLWriter) {
        html.raw("<form class=\"filter\" method=\"get\"")
        html.attribute("action", ListRoute.percentEncodedPath(list.path))
        html.raw(">")
        // What the list already has (filters, search, sort, limit) goes along with the new filter.
        for item in navigationQuery {
            html.raw("<input type=\"hidden\"")
            html.attribute("name", item.name)
            html.attribute("value", item.value)
            html.raw(">")
        }
        // Each column says its kind, and the conditions come grouped by the kinds they fit: the
        // site's script shows only the chosen column's group, and the server refuses a mismatch.
        html.raw("<label>Column <select name=\"filter_column\">")
        var kinds: [FilterOperator.Kind] = []
        for column in list.columnOrder {
            let kind = FilterOperator.Kind(list.columns[column])
            if !kinds.contains(kind) { kinds.append(kind) }
            html.raw("<option")
            html.attribute("value", list.columns[column].name)
            html.attribute("data-kind", kind.rawValue)
            html.raw(">")
            html.text(list.labels[column])
            html.raw("</option>")
        }
        html.raw("</select></label> <label>Condition <select name=\"filter_op\">")
        for kind in FilterOperator.Kind.allCases where kinds.contains(kind) {
            html.raw("<optgroup")
            html.attribute("label", kind.groupLabel)
            html.attribute("data-kind", kind.rawValue)
            html.raw(">")
            for operation in FilterOperator.offered(for: kind) {
                html.raw("<option")
                html.attribute("value", operation.name)
                html.raw(">")
                html.text(operation.label)
                html.raw("</option>")
            }
            html.raw("</optgroup>")
        }
        html.raw("</select></label> <label>Value <input name=\"filter_value\"></label> <button type=\"submit\">Add filter</button></form>\n")
    }

    /// The URL the filter form's `filter_column`, `filter_op` and `filter_value` stand for:
    /// `column__op=value` added to the rest of the query, or nil when the request has no
    /// `filter_column`.
    ///
    /// - Throws: a 400 for a column the list does not have, an operator it does not know, or one
    ///   that does not fit the column's kind (``FilterOperator/offered(for:)``).
    static func filterFormTarget(list: TableList, context: ListContext) throws(HTTPError) -> String? {
        let query = context.query
        guard let column = query["filter_column"] else { return nil }
        guard let index = list.columnIndex(named: column) else {
            throw HTTPError.badRequest("\(list.title) has no column “\(TableQuery.shown(column))”: its columns are \(list.columnNames).")
        }
        let operation = query["filter_op"] ?? "exact"
        let kind = FilterOperator.Kind(list.columns[index])
        let offered = FilterOperator.offered(for: kind)
        guard offered.contains(where: { $0.name == operation }) else {
            let known = FilterOperator.Kind.allCases.contains { kind in FilterOperator.offered(for: kind).contains { $0.name == operation } }
            let choices = offered.map { "\($0.label) (\($0.name))" }.joined(separator: ", ")
            throw HTTPError.badRequest(
                known
                    ? "The condition “\(FilterOperator.label(of: operation, for: .other))” does not apply to \(column), which \(kind.holds): use one of \(choices)."
                    : "Unknown filter condition “\(TableQuery.shown(operation))”: \(column) takes one of \(choices).")
        }
        let value = query["filter_value"] ?? ""
        var target = navigationQuery(of: query)
        switch operation {
        case "isnull": target.append(name: column + "__isnull", value: "1")
        case "notnull": target.append(name: column + "__isnull", value: "0")
        case "exact": target.append(name: ListContext.reservedNames.contains(column) ? column + "__exact" : column, value: value)
        default: target.append(name: column + "__" + operation, value: value)
        }
        return href(path: list.path, target)
    }

    // MARK: URLs

    /// The request's query as links from this page keep it: without the page's place (`cursor`,
    /// `offset`), the fragment, and the filter form's own fields.
    var navigationQuery: QueryItems { Self.navigationQuery(of: context.query) }

    static func navigationQuery(of query: QueryItems) -> QueryItems {
        var kept = query
        kept.removeAll { ["cursor", "offset", "fragment", "filter_column", "filter_op", "filter_value"].contains($0.name) }
        return kept
    }

    /// The list's path (and `suffix`: `.json`, `.csv`) with `query`.
    func href(_ query: QueryItems, suffix: String = "") -> String {
        Self.href(path: list.path, query, suffix: suffix)
    }

    static func href(path: String, _ query: QueryItems, suffix: String = "") -> String {
        let encoded = ListRoute.percentEncodedPath(path) + suffix
        return query.isEmpty ? encoded : encoded + "?" + query.percentEncoded
    }
}
