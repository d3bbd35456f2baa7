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
            if let link = field.link, HTMLWriter.isSafeURL(link) {
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
        html.raw("</dl>\n<p><a")
        html.attribute("href", route.href)
        html.raw(">Back to ")
        html.text(route.title)
        html.raw("</a></p>\n")
        site.writeTail(title: detail.title, currentPath: route.href, into: &html)
        return Response(status: .ok, headers: ["Content-Type": "text/html; charset=utf-8", "Vary": "Accept"], body: .storage(html.takeStorage()))
    }

    static func json(_ detail: RowDetail, identifier: String, cell: String, item: (any Encodable)?, route: ListRoute) throws -> Response {
        let encoder = JSONItemEncoder()
        encoder.writer.raw("{")
        encoder.writer.key("id")
        encoder.writer.string(identifier)
        encoder.writer.raw(",")
        encoder.writer.key("title")
        encoder.writer.string(detail.title)
        encoder.writer.raw(",")
        encoder.writer.key("cell")
        encoder.writer.string(cell)
        encoder.writer.raw(",")
        encoder.writer.key("fields")
        encoder.writer.raw("[")
        for (index, field) in detail.fields.enumerated() {
            if index > 0 { encoder.writer.raw(",") }
            encoder.writer.raw("{")
            encoder.writer.key("label")
            encoder.writer.string(field.label)
            encoder.writer.raw(",")
            encoder.writer.key("value")
            encoder.writer.string(field.value)
            encoder.writer.raw("}")
        }
        encoder.writer.raw("]")
        if let item {
            encoder.writer.raw(",")
            encoder.writer.key("item")
            try encoder.encode(item)
        }
        encoder.writer.raw(",")
        encoder.writer.key("links")
        encoder.writer.raw("{")
        encoder.writer.key("self")
        encoder.writer.string(RowSelection(base: route.href, identifier: identifier).href)
        encoder.writer.raw(",")
        encoder.writer.key("list")
        encoder.writer.string(route.href)
        encoder.writer.raw("}}\n")
        return Response(status: .ok, headers: ["Content-Type": "application/json", "Vary": "Accept"], body: .storage(encoder.writer.takeStorage()))
    }
}
