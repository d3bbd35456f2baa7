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
    /// The sections and rows, written into the sink's encoder, which the head and tail share.
    private var sink: JSONTableSink
    private var encoder: JSONItemEncoder { sink.encoder }
    private var stage = Stage.head

    init(route: ListRoute, controller: any TableController, layout: TableLayout, page: Page, links: PageLinks, registry: ReuseRegistry) {
        self.route = route
        self.controller = controller
        self.page = page
        self.links = links
        walk = TableWalk(controller: controller, layout: layout, window: page.window)
        sink = JSONTableSink(route: route, controller: controller, registry: registry)
    }

    func write(into bytes: inout ByteBuffer, pausingAt limit: Int) throws -> Bool {
        encoder.writer.adopt(&bytes)
        defer { bytes = encoder.writer.takeBuffer() }
        while true {
            switch stage {
            case .head:
                writeHead()
                stage = .sections
            case .sections:
                if try !walk.walk(into: &sink, pausingAt: limit) { return false }
                stage = .tail
            case .tail:
                encoder.writer.raw("]}\n")
                stage = .done
            case .done:
                return true
            }
            if encoder.writer.count >= limit { return stage == .done }
        }
    }

    private func writeHead() {
        let json = JSONWriterAccess(encoder)
        json.raw("{")
        json.key("title")
        json.string(route.title)
        json.raw(",")
        json.key("list")
        json.string(route.href)
        if case .alert(let alert) = controller.action {
            json.raw(",")
            json.key("alert")
            json.raw("{")
            json.key("style")
            json.string(alert.style.rawValue)
            json.raw(",")
            json.key("message")
            json.string(alert.message)
            json.raw("}")
        }
        json.raw(",")
        json.key("meta")
        json.raw("{")
        json.key("offset")
        json.number(page.offset)
        json.raw(",")
        json.key("limit")
        json.number(page.limit)
        json.raw(",")
        json.key("total")
        json.number(page.total)
        json.raw(",")
        json.key("totalIsExact")
        json.bool(page.totalIsExact)
        json.raw(",")
        json.key("maxLimit")
        if let maxLimit = page.maxLimit { json.number(maxLimit) } else { json.null() }
        json.raw(",")
        json.key("requestedLimit")
        if let requested = page.requestedLimit { json.number(requested) } else { json.null() }
        json.raw(",")
        json.key("limitClamped")
        json.bool(page.limitClamped)
        json.raw("},")
        json.key("links")
        json.raw("{")
        // Each URL written from the stack into the document: no array and no string per link.
        func link(_ anchor: PageAnchor?) {
            if let anchor { links.withURL(anchor) { json.string(utf8: $0) } } else { json.null() }
        }
        json.key("self")
        link(page.current)
        json.raw(",")
        json.key("first")
        link(.offset(0))
        json.raw(",")
        json.key("prev")
        link(page.previous)
        json.raw(",")
        json.key("next")
        link(page.next)
        json.raw("},")
        json.key("sections")
        json.raw("[")
    }
}

/// Writes through the encoder's writer without copying it out (a tiny view, for readability).
struct JSONWriterAccess {
    let encoder: JSONItemEncoder
    init(_ encoder: JSONItemEncoder) { self.encoder = encoder }
    func raw(_ syntax: StaticString) { encoder.writer.raw(syntax) }
    func key(_ key: StaticString) { encoder.writer.key(key) }
    func string(_ value: String) { encoder.writer.string(value) }
    func string(orNull value: String?) { encoder.writer.string(orNull: value) }
    func string(utf8 value: UnsafeBufferPointer<UInt8>) { encoder.writer.string(utf8: value) }
    func number(_ value: Int) { encoder.writer.number(value) }
    func bool(_ value: Bool) { encoder.writer.bool(value) }
    func null() { encoder.writer.null() }
}
