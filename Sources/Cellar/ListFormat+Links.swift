import ByteWriters
import MicroHTTP
import TableKit

extension ListFormat {
    /// Writes links to the same rows in each format a path names (`JSON`, `CSV`), each with
    /// `query` (the page's query without its place in the list, ``isPlaceItem(_:)``), as
    /// `<a rel="alternate" type="…" href="…">`: every list's page has them, a database list's in
    /// its status line.
    ///
    /// - Parameter path: the list's path as links write it (``ListRoute/href``).
    public static func writeLinks(toListAt path: String, query: QueryItems, into html: inout HTMLWriter) {
        var kept = query
        if kept.contains(where: { isPlaceItem($0.name) }) { kept.removeAll { isPlaceItem($0.name) } }
        // Encoded once for both links, and only when there is a query; each `href` is written in
        // its parts (every page has these links: no string is made for them).
        let encodedQuery = kept.isEmpty ? nil : kept.percentEncoded
        for (index, format) in named.enumerated() {
            html.raw(index == 0 ? "<a rel=\"alternate\"" : " <a rel=\"alternate\"")
            html.attribute("type", format.mediaType)
            html.raw(" href=\"")
            html.attributeText(path == "/" ? "/index" : path)
            if let pathExtension = format.pathExtension { html.attributeText(pathExtension) }
            if let encodedQuery {
                html.raw("?")
                html.attributeText(encodedQuery)
            }
            html.raw("\">")
            html.text(format.label)
            html.raw("</a>")
        }
    }
}

/// A list controller that places its list's format links itself (``ListFormat/writeLinks(toListAt:query:into:)``,
/// in its ``TableController/renderTableHeader(into:)``): the page then does not add its own line of them.
public protocol FormatLinksPlacing: TableController {}
