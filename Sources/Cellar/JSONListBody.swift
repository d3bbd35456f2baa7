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
        case sectionOpen
        case rows
        case sectionClose
        case tail
        case done
    }

    private let route: ListRoute
    private let controller: any TableController
    private let page: Page
    private let links: PageLinks
    private let slices: [TableLayout.Slice]
    private let encoder = JSONItemEncoder()
    private var stage = Stage.head
    private var sliceIndex = 0
    private var row = 0

    /// The controller, when it writes its rows' items itself (checked once per response).
    private let directItems: (any JSONItemWriting)?
    /// Class cells' reuse identifiers, spelled once per response.
    @exclusivity(unchecked) private var cellNames: [(cellClass: TableViewCell.Type, name: String)] = []

    /// The cells the rows name are checked against it, as the page's dequeuing checks them.
    private let registry: ReuseRegistry

    init(route: ListRoute, controller: any TableController, layout: TableLayout, page: Page, links: PageLinks, registry: ReuseRegistry) {
        self.registry = registry
        self.route = route
        self.controller = controller
        directItems = controller as? any JSONItemWriting
        self.page = page
        self.links = links
        slices = layout.slices(in: page.window)
    }

    func write(into bytes: inout ByteBuffer, pausingAt limit: Int) throws -> Bool {
        encoder.writer.adopt(&bytes)
        defer { bytes = encoder.writer.takeBuffer() }
        while true {
            switch stage {
            case .head:
                writeHead()
                stage = .sectionOpen
            case .sectionOpen:
                guard sliceIndex < slices.count else {
                    stage = .tail
                    continue
                }
                let slice = slices[sliceIndex]
                let json = JSONWriterAccess(encoder)
                if sliceIndex > 0 { json.raw(",") }
                json.raw("{")
                json.key("index")
                json.number(slice.section)
                json.raw(",")
                json.key("header")
                json.string(orNull: controller.titleForHeader(inSection: slice.section))
                json.raw(",")
                json.key("footer")
                json.string(orNull: controller.titleForFooter(inSection: slice.section))
                json.raw(",")
                json.key("rows")
                json.raw("[")
                row = slice.rows.lowerBound
                stage = .rows
            case .rows:
                let slice = slices[sliceIndex]
                // The controller's item writer is unwrapped once per pass, not once per row.
                let sliceDone: Bool
                if let direct = directItems {
                    sliceDone = try writeRows(of: slice, until: limit, direct: direct)
                } else {
                    sliceDone = try writeRows(of: slice, until: limit)
                }
                guard sliceDone else { return false }
                stage = .sectionClose
            case .sectionClose:
                encoder.writer.raw("]}")
                sliceIndex += 1
                stage = .sectionOpen
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

    private func cellName(_ provider: DataCellProvider) throws -> String {
        guard let cellClass = provider.cellClass, provider.isDequeuedByClass else { return provider.reuseIdentifier }
        // Found by identity in a short list: no hashing per row.
        for (known, name) in cellNames where known == cellClass { return name }
        let name = try provider.resolvedIdentifier(in: registry)
        cellNames.append((cellClass, name))
        return name
    }

    /// `,"cell":"Name","href":"/base/` (or `…"href":null`) for each cell name met, written once
    /// per response: a row appends it whole between its identifier and its link's last segment.
    // One render at a time: no exclusivity checks per row.
    // The bytes live outside any array: copying an array out of a class property to read it is a
    // retain and a release, atomic, per row.
    @exclusivity(unchecked) private var cellMembers: [(name: String, bytes: UnsafeMutableRawBufferPointer)] = []

    deinit {
        for member in cellMembers { member.bytes.deallocate() }
    }

    private func writeCellMember(_ name: String) throws {
        // A list has a handful of cell kinds: a linear search of short names beats hashing one per row.
        for index in cellMembers.indices where cellMembers[index].name == name {
            encoder.writer.append(UnsafeRawBufferPointer(cellMembers[index].bytes))
            return
        }
        // A name met for the first time must be one the page could dequeue: the same error as the page's.
        guard registry.isRegistered(name) else {
            throw TableKitError.unregisteredIdentifier(name, registered: registry.registeredIdentifiers)
        }
        var json = JSONWriter()
        json.string(after: ",\"cell\":", name)
        if route.hasDetail {
            json.string(after: ",\"href\":", route.href + "/")
            json.truncate(to: json.count - 1)
        } else {
            json.raw(",\"href\":null")
        }
        json.withUnsafeBytes { bytes in
            encoder.writer.append(bytes)
            if cellMembers.count < 16 {
                let kept = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
                kept.copyMemory(from: bytes)
                cellMembers.append((name, kept))
            }
        }
    }

    /// Writes the slice's rows from `row` on, each item written by the controller itself; false
    /// when the buffer reached `limit` first.
    private func writeRows(of slice: TableLayout.Slice, until limit: Int, direct: some JSONItemWriting) throws -> Bool {
        while row < slice.rows.upperBound {
            let indexPath = IndexPath(row: row, section: slice.section)
            try writeRowStart(indexPath, first: row == slice.rows.lowerBound, cell: direct.cellIdentifier(forRowAt: indexPath))
            // No Encodable containers, no cast per row.
            let mark = encoder.writer.count
            encoder.writer.raw(",\"item\":")
            if !direct.writeItem(forRowAt: indexPath, into: &encoder.writer) { encoder.writer.truncate(to: mark) }
            encoder.writer.raw("}")
            row += 1
            if encoder.writer.count >= limit { return false }
        }
        return true
    }

    /// Writes the slice's rows from `row` on, each item through `Encodable`; false when the
    /// buffer reached `limit` first.
    private func writeRows(of slice: TableLayout.Slice, until limit: Int) throws -> Bool {
        while row < slice.rows.upperBound {
            let indexPath = IndexPath(row: row, section: slice.section)
            try writeRowStart(indexPath, first: row == slice.rows.lowerBound)
            if let item = controller.item(forRowAt: indexPath) {
                let json = JSONWriterAccess(encoder)
                json.raw(",")
                json.key("item")
                try encoder.encode(item)
            }
            encoder.writer.raw("}")
            row += 1
            if encoder.writer.count >= limit { return false }
        }
        return true
    }

    /// Writes a row's object up to its item: `{"id":…,"cell":…,"href":…`.
    private func writeRowStart(_ indexPath: IndexPath, first: Bool, cell: String? = nil) throws {
        let identifier = controller.identifier(forRowAt: indexPath)
        encoder.writer.string(after: first ? "{\"id\":" : ",{\"id\":", identifier)
        try writeCellMember(try cell ?? cellName(controller.cellProvider(forRowAt: indexPath)))
        // Only lists with detail routes have a row link: the index at `/` would otherwise give `//people`.
        if route.hasDetail { encoder.writer.pathSegmentClosingString(identifier) }
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
