import ByteWriters
import MicroHTTP
import TableKit

/// A list as JSON, written in steps so a large one can stream:
///
/// ```json
/// {"title": "People", "list": "/people",
///  "meta": {"offset": 0, "limit": 50, "total": 10000, "totalIsExact": true, "maxLimit": 500, "requestedLimit": null, "limitClamped": false},
///  "links": {"self": "…", "first": "…", "prev": null, "next": "…"},
///  "sections": [{"index": 0, "header": "…", "footer": null,
///                "rows": [{"id": "1", "cell": "SubtitleCell", "href": "/people/1", "item": {…}}]}]}
/// ```
///
/// `href` is the row's detail route, or null for a list without details (the index of lists).
final class JSONListBody: ListBody {
    private enum Stage {
        case head
        case sections
        case tail
        case done
    }

    private let route: ListRoute
    private let controller: any TableController
    private let page: Page
    private let links: PageLinks
    private var walk: TableWalk
    /// The sections and rows, written into the sink's writer, which the head and tail share.
    private var sink: JSONTableSink
    private var stage = Stage.head

    init(
        route: ListRoute, controller: any TableController, layout: TableLayout, page: Page, links: PageLinks, registry: ReuseRegistry,
        rowErrors: RowErrorReporter?
    ) {
        self.route = route
        self.controller = controller
        self.page = page
        self.links = links
        walk = TableWalk(controller: controller, layout: layout, window: page.window)
        sink = JSONTableSink(route: route, controller: controller, registry: registry, rowErrors: rowErrors)
    }

    convenience init(_ parts: ListBodyParts) {
        self.init(
            route: parts.route, controller: parts.controller, layout: parts.layout, page: parts.page, links: parts.links,
            registry: parts.registry, rowErrors: parts.rowErrors)
    }

    func write(into bytes: inout ByteBuffer, pausingAt limit: Int) throws -> Bool {
        sink.writer.adopt(&bytes)
        defer { bytes = sink.writer.takeBuffer() }
        while true {
            switch stage {
            case .head:
                writeHead(into: &sink.writer)
                sink.writeListMembers()
                writeHeadEnd(into: &sink.writer)
                stage = .sections
            case .sections:
                if try !walk.walk(into: &sink, pausingAt: limit) { return false }
                stage = .tail
            case .tail:
                sink.writer.raw("]}\n")
                stage = .done
            case .done:
                return true
            }
            if sink.writer.count >= limit { return stage == .done }
        }
    }

    private func writeHead(into json: inout JSONWriter) {
        json.raw("{")
        json.key("title")
        json.string(route.title)
        json.member("list", route.href)
        if case .alert(let alert) = controller.action {
            json.member("alert")
            json.raw("{")
            json.key("style")
            json.string(alert.style.rawValue)
            json.member("message", alert.message)
            json.raw("}")
        }
    }

    private func writeHeadEnd(into json: inout JSONWriter) {
        json.raw(",")
        json.pageMembers(page, links: links)
        json.member("sections")
        json.raw("[")
    }
}

extension JSONWriter {
    /// `"meta":{…},"links":{…}`: where a page lies in its list and the URLs of its neighbours, as
    /// the list's JSON and its live patches write them.
    mutating func pageMembers(_ page: Page, links: PageLinks) {
        // Each URL written from the stack into the document: no array and no string per link.
        func link(_ anchor: PageAnchor?) {
            if let anchor { links.withURL(anchor) { string(utf8: $0) } } else { null() }
        }
        key("meta")
        raw("{")
        key("offset")
        number(page.offset)
        member("limit", page.limit)
        member("total", page.total)
        member("totalIsExact", page.totalIsExact)
        member("maxLimit", page.maxLimit)
        member("requestedLimit", page.requestedLimit)
        member("limitClamped", page.limitClamped)
        raw("}")
        member("links")
        raw("{")
        key("self")
        link(page.current)
        member("first")
        link(.offset(0))
        member("prev")
        link(page.previous)
        member("next")
        link(page.next)
        raw("}")
    }
}
