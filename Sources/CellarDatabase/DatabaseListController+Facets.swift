import Cellar
import MicroHTTP
import TableKit

/// A list's facets as the page shows them (above the rows: each value a link that adds its filter,
/// or removes it when selected) and as its JSON has them (`facets`, `suggestedFacets`).
extension DatabaseListController {
    /// Where a facet's value links, and whether the list is filtered to it now. A blob cannot be
    /// filtered by: no link.
    func facetLink(column: Int, value: DatabaseValue) -> (href: String?, selected: Bool) {
        let name = list.columns[column].name
        let selects: ((name: String, value: String)) -> Bool = { filter in
            if case .null = value {
                return filter.name == name + "__isnull" && (filter.value == "1" || filter.value == "true")
            }
            guard filter.name == name + "__exact" || (filter.name == name && !ListContext.reservedNames.contains(name)) else { return false }
            return (try? TableQuery.parse(filter.value, for: self.list.columns[column])) == value
        }
        var query = navigationQuery
        if context.filters.contains(where: selects) {
            query.removeAll { item in selects((item.name, item.value)) }
            return (href(query), true)
        }
        switch value {
        case .null: query.append(name: name + "__isnull", value: "1")
        case .blob: return (nil, false)
        case .integer(let integer): query.append(name: filterName(column), value: String(integer))
        case .real(let real): query.append(name: filterName(column), value: DatabaseValue.text(for: real))
        case .text(let text): query.append(name: filterName(column), value: text)
        }
        return (href(query), false)
    }

    /// The parameter that filters a column by equality: its name, or `name__exact` for a reserved name.
    private func filterName(_ column: Int) -> String {
        let name = list.columns[column].name
        return ListContext.reservedNames.contains(name) ? name + "__exact" : name
    }

    /// The list with one more facet, or one fewer.
    func facetToggleLink(column: Int) -> String {
        let name = list.columns[column].name
        var query = navigationQuery
        if query.values(for: "facet").contains(name) {
            query.removeAll { $0.name == "facet" && $0.value == name }
        } else {
            query.append(name: "facet", value: name)
        }
        return href(query)
    }

    // MARK: HTML

    /// The facets, alone: a watched page's facets are replaced by them when a write
    /// changes a count (``TableController/renderLiveHeader(into:)``).
    public func renderLiveHeader(into html: inout HTMLWriter) {
        guard context.rowIdentifier == nil else { return }
        writeFacets(into: &html)
    }

    func writeFacets(into html: inout HTMLWriter) {
        guard !facets.isEmpty || !suggestedFacets.isEmpty else { return }
        html.raw("<section class=\"facets\" id=\"")
        html.raw(liveHeaderElementID)
        html.raw("\" aria-label=\"Facets\">\n")
        for facet in facets {
            let label = list.labels[facet.column]
            html.raw("<div class=\"facet\"><h2>")
            html.text(label)
            // A configured facet stays; one the URL asked for can be taken away.
            if !list.facetColumns.contains(facet.column) {
                html.raw(" <a class=\"facet-remove\"")
                html.attribute("href", facetToggleLink(column: facet.column))
                html.attribute("aria-label", "Remove the facet " + label)
                html.raw("><span aria-hidden=\"true\">×</span></a>")
            }
            html.raw("</h2>")
            if facet.timedOut {
                html.raw("<p class=\"facet-note\">Counting took longer than the time limit: filter the list, then try again.</p></div>\n")
                continue
            }
            html.raw("<ul>")
            for value in facet.values {
                let (link, selected) = facetLink(column: facet.column, value: value.value)
                html.raw(selected ? "<li class=\"selected\">" : "<li>")
                if let link {
                    html.raw("<a")
                    html.attribute("href", link)
                    if selected { html.raw(" aria-current=\"true\"") }
                    html.raw(">")
                }
                writeFacetValue(value, into: &html)
                if selected { html.raw(" <span class=\"visually-hidden\">(selected; remove)</span>") }
                if link != nil { html.raw("</a>") }
                html.raw(" <span class=\"count\">")
                html.text(grouping: value.count)
                html.raw("</span></li>")
            }
            html.raw("</ul>")
            if facet.truncated {
                html.raw("<p class=\"facet-note\">The ")
                html.text(facet.values.count)
                html.raw(" most common values.</p>")
            }
            html.raw("</div>\n")
        }
        if !suggestedFacets.isEmpty {
            html.raw("<p class=\"suggested-facets\">Suggested facets: ")
            for (index, column) in suggestedFacets.enumerated() {
                if index > 0 { html.raw(", ") }
                html.raw("<a")
                html.attribute("href", facetToggleLink(column: column))
                html.raw(">")
                html.text(list.labels[column])
                html.raw("</a>")
            }
            html.raw("</p>\n")
        }
        html.raw("</section>\n")
    }

    private func writeFacetValue(_ value: Facet.Value, into html: inout HTMLWriter) {
        if let label = value.label {
            html.text(label)
            return
        }
        switch value.value {
        case .null: html.raw("<span class=\"null\">NULL</span>")
        case .integer(let integer): html.text(Int(integer))
        case .real(let real): html.text(DatabaseValue.text(for: real))
        case .text(let text): text.isEmpty ? html.raw("<span class=\"empty\">(empty)</span>") : html.text(text)
        case .blob(let bytes):
            html.raw("(")
            html.text(bytes.count)
            html.raw("-byte blob)")
        }
    }

    // MARK: JSON

    /// `,"facets":{"column":{"values":[{"value","label","count","href","selected"}],"truncated","timedOut"}}`
    /// and `,"suggestedFacets":[{"name","href"}]`, when the list has any.
    public func writeListMembers(into json: inout JSONWriter) {
        guard context.rowIdentifier == nil else { return }
        json.member("facets")
        json.raw("{")
        for (index, facet) in facets.enumerated() {
            if index > 0 { json.raw(",") }
            json.key(list.columns[facet.column].name)
            json.raw("{")
            json.key("values")
            json.raw("[")
            for (position, value) in facet.values.enumerated() {
                if position > 0 { json.raw(",") }
                let (link, selected) = facetLink(column: facet.column, value: value.value)
                json.raw("{")
                json.key("value")
                Self.writeJSONValue(value.value, into: &json)
                if let label = value.label { json.member("label", label) }
                json.member("count", value.count)
                json.member("href")
                if let link { json.string(link) } else { json.null() }
                json.member("selected", selected)
                json.raw("}")
            }
            json.raw("]")
            json.member("truncated", facet.truncated)
            json.member("timedOut", facet.timedOut)
            json.raw("}")
        }
        json.raw("}")
        json.member("suggestedFacets")
        json.raw("[")
        for (index, column) in suggestedFacets.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{")
            json.key("name")
            json.string(list.columns[column].name)
            json.member("href", facetToggleLink(column: column))
            json.raw("}")
        }
        json.raw("]")
    }

    static func writeJSONValue(_ value: DatabaseValue, into json: inout JSONWriter) {
        switch value {
        case .null: json.null()
        case .integer(let integer): json.number(Int(integer))
        case .real(let real): json.number(real)
        case .text(let text): json.string(text)
        case .blob(let bytes):
            json.raw("{")
            json.key("$base64")
            json.string(bytes.withUnsafeBufferPointer { base64($0) })
            json.raw("}")
        }
    }
}
