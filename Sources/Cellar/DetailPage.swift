import ByteWriters
import MicroHTTP
import TableKit

/// A selected row's detail: a page with its fields as a definition list, or JSON.
enum DetailPage {
    static func html(_ detail: RowDetail, route: ListRoute, site: SiteLayout) -> Response {
        var html = HTMLWriter(capacity: 4096)
        site.writeHead(title: detail.title, currentPath: route.href, into: &html, mainClass: "detail-view")
        html.element("h1", text: detail.title)
        html.raw("\n<dl class=\"detail\">\n")
        for field in detail.fields {
            html.element("dt", text: field.label)
            html.raw("<dd>")
            if field.isNull {
                html.raw("<span class=\"null\">NULL</span>")
            } else if let link = field.link, HTMLWriter.isSafeURL(link) {
                html.raw("<a")
                html.urlAttribute("href", link)
                html.raw(">")
                html.text(field.value)
                html.raw("</a>")
            } else {
                html.text(field.value)
            }
            html.raw("</dd>\n")
        }
        html.raw("</dl>\n")
        if !detail.references.isEmpty {
            html.raw("<section class=\"references\" aria-labelledby=\"references\"><h2 id=\"references\">Referenced by</h2>\n<ul>")
            for reference in detail.references {
                html.raw("<li>")
                if HTMLWriter.isSafeURL(reference.link) {
                    html.raw("<a")
                    html.urlAttribute("href", reference.link)
                    html.raw(">")
                    html.text(reference.text)
                    html.raw("</a>")
                } else {
                    html.text(reference.text)
                }
                html.raw("</li>\n")
            }
            html.raw("</ul></section>\n")
        }
        if !detail.actions.isEmpty {
            html.raw("<div class=\"row-actions\">")
            for action in detail.actions where HTMLWriter.isSafeURL(action.path) {
                // A destructive action (Delete) in red, as in a row's editing controls.
                let classes: StaticString = action.style == .destructive ? "button button-destructive" : "button"
                if action.posts {
                    html.raw("<form method=\"post\"")
                    html.urlAttribute("action", action.path)
                    html.raw("><button class=\"")
                    html.raw(classes)
                    html.raw("\" type=\"submit\">")
                    html.text(action.title)
                    html.raw("</button></form>")
                } else {
                    html.raw("<a class=\"")
                    html.raw(classes)
                    html.raw("\"")
                    html.urlAttribute("href", action.path)
                    html.raw(">")
                    html.text(action.title)
                    html.raw("</a>")
                }
            }
            html.raw("</div>\n")
        }
        writeBackLink(to: route.href, title: route.title, into: &html)
        site.writeTail(title: detail.title, currentPath: route.href, into: &html)
        return Response(status: .ok, headers: ["Content-Type": "text/html; charset=utf-8", "Vary": "Accept"], body: .storage(html.takeStorage()))
    }

    /// "Back to Recipes": a detail's way back to its list.
    static func writeBackLink(to href: String, title: String, into html: inout HTMLWriter) {
        html.raw("<p><a")
        html.attribute("href", href)
        html.raw(">Back to ")
        html.text(title)
        html.raw("</a></p>\n")
    }

    static func json(_ detail: RowDetail, identifier: String, cell: String?, item: (any Encodable)?, route: ListRoute) throws -> Response {
        var json = JSONWriter()
        json.raw("{")
        json.key("id")
        json.string(identifier)
        json.member("title", detail.title)
        json.member("cell", cell)
        json.member("fields")
        json.raw("[")
        for (index, field) in detail.fields.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{")
            json.key("label")
            json.string(field.label)
            json.member("value", field.isNull ? nil : field.value)
            json.raw("}")
        }
        json.raw("]")
        if !detail.references.isEmpty {
            json.member("references")
            json.raw("[")
            for (index, reference) in detail.references.enumerated() {
                if index > 0 { json.raw(",") }
                json.raw("{")
                json.key("list")
                json.string(reference.list)
                json.member("column", reference.column)
                json.member("count", reference.count)
                json.member("countIsExact", reference.countIsExact)
                json.member("href", reference.link)
                json.member("text", reference.text)
                json.raw("}")
            }
            json.raw("]")
        }
        if let item {
            json.member("item")
            try JSONItemEncoder(specialValues: FoundationJSONValues.self).encode(item, into: &json)
        }
        json.member("links")
        json.raw("{")
        json.key("self")
        json.string(RowSelection(base: route.href, identifier: identifier).href)
        json.member("list", route.href)
        json.raw("}}\n")
        return Response(status: .ok, headers: ["Content-Type": "application/json", "Vary": "Accept"], body: .storage(json.takeStorage()))
    }
}
