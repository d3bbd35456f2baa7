import ByteWriters
import Synchronization
import TableKit

/// A ``TableWalk``'s JSON: the sections and rows of a list's JSON twin (see ``JSONListBody``),
/// or, wrapped in a ``WindowVersionSink``, each row's object alone for a live list.
///
/// ```json
/// {"index": 0, "id": "0", "header": "…", "footer": null,
///  "rows": [{"id": "1", "cell": "SubtitleCell", "href": "/people/1", "item": {…}}]}
/// ```
///
/// A row's `cell` is named by the provider the walk got from the controller, as the page dequeues
/// it: the same cell, and the same error for a cell nothing is registered under.
///
/// A value that cannot be copied, held by the body that walks into it: no object of its own per
/// response.
struct JSONTableSink: TableWalkSink, ~Copyable {
    /// The JSON written so far, which the body around the sink writes its head and tail into too.
    var writer = JSONWriter()
    /// Lent the writer for an `Encodable` row item (a controller that does not write its items).
    private let encoder = JSONItemEncoder(specialValues: FoundationJSONValues.self)
    private let route: ListRoute
    private let controller: any TableController
    /// Whether the controller writes its rows' items itself (a ``JSONItemWriting``, checked once
    /// per response), and its writer: a closure over the opened controller, which a row calls
    /// without copying the controller out of an (optional) existential.
    private let writesItems: Bool
    private let writeItem: (IndexPath, inout JSONWriter) -> Bool
    /// The controller, when it writes its items and its own members of the list
    /// (``JSONItemWriting/writeListMembers(into:)``).
    private let itemWriting: (any JSONItemWriting)?
    /// The cells the rows name are checked against it, as the page's dequeuing checks them.
    private let registry: ReuseRegistry
    /// Told of a row whose cell cannot be named or whose item cannot be encoded, which is then
    /// written as `{"id":…,"error":{"message":…,"requestID":…}}`; nil: the error stops the walk.
    private let rowErrors: RowErrorReporter?
    private var sectionsWritten = 0
    private var rowsWrittenInSection = 0
    /// `,"cell":"Name","href":"/base/` (or `…"href":null`) for each cell met, made once per
    /// response: a row appends it whole between its identifier and its link's last segment.
    private var cellMembers: [(name: String, bytes: UnsafeMutableRawBufferPointer)] = []
    /// The members of the last class cell and of the last cell named by identifier: a list's rows
    /// take turns among few cells, so most rows find theirs here, without a search.
    private var lastClassMember: (cellClass: ObjectIdentifier, bytes: UnsafeRawBufferPointer)?
    private var lastName = ""
    private var lastNamedMember: UnsafeRawBufferPointer?
    /// The bytes of `,"href":"/base/` at the end of a cell member of a list with details: what a
    /// row without a link takes back before writing `,"href":null`.
    private let hrefPrefixCount: Int
    /// The controller, when its rows can be changed: each row then says its version (``RowVersion``),
    /// what `If-Match` names in a change of it.
    private let editable: (any EditableTableController)?

    init(route: ListRoute, controller: any TableController, registry: ReuseRegistry, rowErrors: RowErrorReporter? = nil) {
        self.route = route
        self.rowErrors = rowErrors
        self.controller = controller
        if let direct = controller as? any JSONItemWriting {
            writesItems = true
            writeItem = Self.itemWriter(direct)
            itemWriting = direct
        } else {
            writesItems = false
            writeItem = { _, _ in false }
            itemWriting = nil
        }
        self.registry = registry
        editable = Self.editable(controller)
        var href = JSONWriter()
        href.string(after: ",\"href\":", route.href + "/")
        hrefPrefixCount = href.count - 1
    }

    deinit {
        for member in cellMembers { member.bytes.deallocate() }
    }

    var byteCount: Int { writer.count }

    /// Writes the controller's own members of the list into the writer.
    mutating func writeListMembers() {
        itemWriting?.writeListMembers(into: &writer)
    }

    mutating func openSection(_ section: TableWalk.Section) {
        if sectionsWritten > 0 { writer.raw(",") }
        writer.raw("{")
        writer.sectionMembers(index: section.index, identifier: section.identifier, header: section.header, footer: section.footer)
        writer.member("rows")
        writer.raw("[")
        sectionsWritten += 1
        rowsWrittenInSection = 0
    }

    mutating func closeSection(_ section: TableWalk.Section) {
        writer.raw("]}")
    }

    /// `{"id":…,"cell":…,"href":…,"item":…}`, after a comma unless it is its section's first; or
    /// the row's error object when its cell or item fails and there is a ``RowErrorReporter``.
    mutating func writeRow(at indexPath: IndexPath, identifier: consuming String, provider: DataCellProvider) throws {
        let rowStart = writer.count
        do {
            writer.string(after: rowsWrittenInSection == 0 ? "{\"id\":" : ",{\"id\":", identifier)
            try writeCellMember(of: provider)
            // Only lists with detail routes have a row link: the index at `/` would otherwise give `//people`.
            // An empty identifier (a database row whose key is NULL) names no detail: its link is null, as on the page.
            if route.hasDetail {
                if identifier.isEmpty {
                    writer.truncate(to: writer.count - hrefPrefixCount)
                    writer.raw(",\"href\":null")
                } else {
                    writer.pathSegmentClosingString(identifier)
                }
            }
            if writesItems {
                // No Encodable containers, no cast per row.
                let mark = writer.count
                writer.raw(",\"item\":")
                if !writeItem(indexPath, &writer) { writer.truncate(to: mark) }
            } else if let item = controller.item(forRowAt: indexPath) {
                writer.member("item")
                try encoder.encode(item, into: &writer)
            }
            if let editable { writer.string(after: ",\"version\":", RowVersion.of(editable, at: indexPath)) }
        } catch {
            guard let rowErrors else { throw error }
            writer.truncate(to: rowStart)
            let message = rowErrors.messageForFailedRow(at: indexPath, error: error)
            writer.string(after: rowsWrittenInSection == 0 ? "{\"id\":" : ",{\"id\":", identifier)
            writer.string(after: ",\"error\":{\"message\":", message)
            writer.string(after: ",\"requestID\":", rowErrors.requestID)
            writer.raw("}")
        }
        writer.raw("}")
        rowsWrittenInSection += 1
    }

    /// The type of the last controller found not to be an ``EditableTableController``: the cast
    /// searches the runtime's conformances, and a list's controller is of the same type request
    /// after request.
    private static let lastUneditableType = Atomic<UInt>(0)

    private static func editable(_ controller: any TableController) -> (any EditableTableController)? {
        let type = UInt(bitPattern: ObjectIdentifier(Swift.type(of: controller)))
        if lastUneditableType.load(ordering: .relaxed) == type { return nil }
        if let editable = controller as? any EditableTableController { return editable }
        lastUneditableType.store(type, ordering: .relaxed)
        return nil
    }

    private static func itemWriter(_ controller: some JSONItemWriting) -> (IndexPath, inout JSONWriter) -> Bool {
        { indexPath, json in controller.writeItem(forRowAt: indexPath, into: &json) }
    }

    /// Appends the row's `"cell"` and `"href"` members for the cell `provider` dequeues: a class
    /// cell under its own name found by its class, any other by its identifier.
    private mutating func writeCellMember(of provider: DataCellProvider) throws {
        if provider.isDequeuedByClass, let cellClass = provider.cellClass {
            let key = ObjectIdentifier(cellClass)
            if let last = lastClassMember, last.cellClass == key {
                writer.append(last.bytes)
                return
            }
            let bytes = try member(for: provider)
            lastClassMember = (key, bytes)
            writer.append(bytes)
        } else {
            if let last = lastNamedMember, provider.isDequeued(byIdentifier: lastName) {
                writer.append(last)
                return
            }
            let bytes = try member(for: provider)
            lastName = provider.reuseIdentifier
            lastNamedMember = bytes
            writer.append(bytes)
        }
    }

    /// The member for the cell `provider` dequeues, made the first time it is met. Its name is
    /// resolved as dequeuing resolves it (a class cell with `registerCell` registers itself), and
    /// one nothing is registered under is the page's error.
    private mutating func member(for provider: DataCellProvider) throws -> UnsafeRawBufferPointer {
        let name = try provider.resolvedIdentifier(in: registry)
        for member in cellMembers where member.name == name { return UnsafeRawBufferPointer(member.bytes) }
        var json = JSONWriter()
        json.string(after: ",\"cell\":", name)
        if route.hasDetail {
            json.string(after: ",\"href\":", route.href + "/")
            json.truncate(to: json.count - 1)
        } else {
            json.raw(",\"href\":null")
        }
        let kept = json.withUnsafeBytes { bytes in
            let kept = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            kept.copyMemory(from: bytes)
            return kept
        }
        // As many as the registry has cells, at most.
        cellMembers.append((name, kept))
        return UnsafeRawBufferPointer(kept)
    }
}

extension JSONTableSink: PageRowSink {
    /// A row's object as the list's JSON has it, without the comma before it.
    mutating func takeWritten() -> [UInt8] {
        rowsWrittenInSection = 0
        return writer.takeBytes()
    }

    mutating func discardWritten() {
        rowsWrittenInSection = 0
        writer.removeAll()
    }
}

extension JSONWriter {
    /// `"index":N,"id":"…","header":…,"footer":…`: a section's members, as the list's JSON and its
    /// live patches write them.
    mutating func sectionMembers(index: Int, identifier: String, header: String?, footer: String?) {
        key("index")
        number(index)
        member("id", identifier)
        member("header", header)
        member("footer", footer)
    }
}
