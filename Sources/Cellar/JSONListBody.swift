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
        json.member("title", first: true) { json.string(route.title) }
        json.member("list") { json.string(route.href) }
        if case .alert(let alert) = controller.action {
            json.member("alert") {
                json.raw("{")
                json.member("style", first: true) { json.string(alert.style.rawValue) }
                json.member("message") { json.string(alert.message) }
                json.raw("}")
            }
        }
        json.raw(",")
        encoder.writer.pageMembers(page, links: links)
        json.member("sections") { json.raw("[") }
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
        raw(",")
        key("limit")
        number(page.limit)
        raw(",")
        key("total")
        number(page.total)
        raw(",")
        key("totalIsExact")
        bool(page.totalIsExact)
        raw(",")
        key("maxLimit")
        if let maxLimit = page.maxLimit { number(maxLimit) } else { null() }
        raw(",")
        key("requestedLimit")
        if let requestedLimit = page.requestedLimit { number(requestedLimit) } else { null() }
        raw(",")
        key("limitClamped")
        bool(page.limitClamped)
        raw("},")
        key("links")
        raw("{")
        key("self")
        link(page.current)
        raw(",")
        key("first")
        link(.offset(0))
        raw(",")
        key("prev")
        link(page.previous)
        raw(",")
        key("next")
        link(page.next)
        raw("}")
    }
}

/// Writes through the encoder's writer without copying it out (a tiny view, for readability).
struct JSONWriterAccess {
    let encoder: JSONItemEncoder
    init(_ encoder: JSONItemEncoder) { self.encoder = encoder }
    func raw(_ syntax: StaticString) { encoder.writer.raw(syntax) }
    func key(_ key: StaticString) { encoder.writer.key(key) }
    func string(_ value: String) { encoder.writer.string(value) }
    /// `"name":` and the value `body` writes, after a comma unless it is the object's first member.
    func member(_ name: StaticString, first: Bool = false, _ body: () -> Void) {
        if !first { encoder.writer.raw(",") }
        encoder.writer.key(name)
        body()
    }
}
