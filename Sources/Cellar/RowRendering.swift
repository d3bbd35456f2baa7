import TableKit

/// One row of a list rendered alone, as the page and the JSON draw it: its `<li>` element and its
/// JSON object. A live list's patches carry these, so a row patched in is the row a reload would show.
///
/// Until TableKit renders a single row by itself, each is a one-row window written by the page's
/// own renderer (``TableRenderer``) or body (``JSONListBody``), without the section around it.
/// The section's markup is written by that code alone and its texts are escaped, so the first
/// `<ul class="rows"…>` line and the last `</ul>` are the section's (and likewise `"rows":[` and
/// the closing `]}]}` in JSON).
struct RowRendering {
    let route: ListRoute
    let registry: ReuseRegistry
    let controller: any TableController
    let layout: TableLayout
    /// One table view (one pool of cells) for all the rows of a render.
    let tableView: TableView

    init(route: ListRoute, registry: ReuseRegistry, controller: any TableController, layout: TableLayout) {
        self.route = route
        self.registry = registry
        self.controller = controller
        self.layout = layout
        tableView = TableView(registry: registry, selectionBase: route.hasDetail ? route.href : nil)
    }

    /// The `<li …>…</li>` of the row at `flatIndex` (with its line break).
    func html(ofRowAt flatIndex: Int) throws -> [UInt8] {
        var renderer = TableRenderer(controller: controller, tableView: tableView, layout: layout, window: flatIndex..<(flatIndex + 1))
        var html = HTMLWriter()
        _ = try renderer.render(into: &html)
        let bytes = html.takeBytes()
        guard let listOpening = Self.firstRange(of: Array("<ul class=\"rows\"".utf8), in: bytes),
            let start = bytes[listOpening.upperBound...].firstIndex(of: UInt8(ascii: "\n")),
            let end = Self.lastRange(of: Array("</ul>\n".utf8), in: bytes)
        else { return [] }
        return Array(bytes[(start + 1)..<end.lowerBound])
    }

    /// The JSON object of the row at `flatIndex`, as the list's JSON writes it in `rows`.
    func json(ofRowAt flatIndex: Int, page: Page, links: PageLinks) throws -> [UInt8] {
        var single = page
        single.window = flatIndex..<(flatIndex + 1)
        let body = JSONListBody(route: route, controller: controller, layout: layout, page: single, links: links, registry: registry)
        var bytes: [UInt8] = []
        _ = try body.write(into: &bytes, pausingAt: .max)
        let closing = Array("]}]}\n".utf8)
        guard let rows = Self.firstRange(of: Array("\"rows\":[".utf8), in: bytes), bytes.count >= rows.upperBound + closing.count,
            Array(bytes.suffix(closing.count)) == closing
        else { return [] }
        return Array(bytes[rows.upperBound..<(bytes.count - closing.count)])
    }

    private static func firstRange(of needle: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return start..<(start + needle.count) }
        }
        return nil
    }

    private static func lastRange(of needle: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        guard bytes.count >= needle.count else { return nil }
        for start in stride(from: bytes.count - needle.count, through: 0, by: -1) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return start..<(start + needle.count) }
        }
        return nil
    }
}
