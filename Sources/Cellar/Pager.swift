import ByteWriters
import TableKit

/// The pager under a list's rows, in its page and its rows fragment:
///
/// ```html
/// <nav class="pager" id="list-pager" aria-label="Pages" data-first="1" data-last="50" data-total="1000">
///   <span aria-current="page">Rows 1–50 of 1,000</span> <a class="load-more" rel="next" href="…">Load more</a></nav>
/// ```
///
/// Its id is stable, so that a live list can replace it when the rows it counts change.
enum Pager {
    /// The `id` of the pager's `<nav>`.
    static let elementID: StaticString = "list-pager"

    /// Writes the pager of `page`, its links from `links`, and its line break.
    static func write(_ page: Page, links: PageLinks, paging: ListPaging, into html: inout HTMLWriter) {
        // The rows' numbers in the whole list (a fetched page's window counts from its own first row).
        let shown = page.offset..<(page.offset + page.window.count)
        html.raw("<nav class=\"pager\" id=\"")
        html.raw(elementID)
        html.raw("\" aria-label=\"Pages\"")
        html.attribute("data-first", shown.isEmpty ? 0 : shown.lowerBound + 1)
        html.attribute("data-last", shown.upperBound)
        html.attribute("data-total", page.total)
        html.raw(">")
        if let previous = page.previous {
            html.raw("<a rel=\"prev\"")
            links.withURL(previous) { html.attribute("href", utf8: $0) }
            html.raw(">Previous</a> ")
        }
        html.raw("<span aria-current=\"page\">")
        if shown.isEmpty {
            html.raw("No rows")
            if page.total > 0 {
                html.raw(" here; the list has ")
                writeTotal(of: page, into: &html)
            }
        } else if paging == .unpaged && shown.count == page.total {
            html.raw("All ")
            html.text(grouping: page.total)
            html.raw(" rows")
        } else {
            html.raw("Rows ")
            html.text(grouping: shown.lowerBound + 1)
            html.raw("–")
            html.text(grouping: shown.upperBound)
            html.raw(" of ")
            writeTotal(of: page, into: &html)
        }
        html.raw("</span>")
        if let next = page.next {
            html.raw(" <a class=\"load-more\" rel=\"next\"")
            links.withURL(next) { html.attribute("href", utf8: $0) }
            links.withURL(next, fragment: true) { html.attribute("data-fragment-url", utf8: $0) }
            html.raw(">Load more</a>")
        }
        html.raw("</nav>\n")
    }

    /// `1,000` or, when the list stopped counting, `at least 1,000`.
    private static func writeTotal(of page: Page, into html: inout HTMLWriter) {
        if !page.totalIsExact { html.raw("at least ") }
        html.text(grouping: page.total)
    }
}
