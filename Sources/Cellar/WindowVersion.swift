import ByteWriters
import MicroHTTP
import TableKit

/// One version of a watched window of a list: its rows' identities with a digest of each row's
/// rendered bytes (the snapshot the next version is compared with), the bytes themselves, its
/// sections' titles, and its pager.
struct WindowVersion: Sendable {
    /// A section of the window: its number in the list, its identifier and its titles.
    struct Section: Sendable, Equatable {
        var index: Int
        var identifier: String
        var header: String?
        var footer: String?
    }

    /// Rows by identity, in sections named by their identifiers; the content is the digest of the row's bytes.
    var snapshot = TableSnapshot<UInt64>()
    /// The sections, in the snapshot's order.
    var sections: [Section] = []
    /// Each row's `<li>` (for a page) or JSON object, by identity; empty in the version a window keeps.
    var rows: [String: [UInt8]] = [:]
    /// The window's pager as the page writes it (``Pager``), or for JSON its `"meta"` and `"links"`
    /// members: the rows counted and the links to the neighbouring pages, which rows entering or
    /// leaving the list change.
    var pager: [UInt8] = []
    /// The part of the page's table header that follows the rows (``TableController/renderLiveHeader(into:)``:
    /// a database list's facets), or for JSON the list's own members (``JSONItemWriting/writeListMembers(into:)``:
    /// `,"facets":{…}`); empty for a list that has none.
    var liveHeader: [UInt8] = []

    /// Renders the window `request` names of `route`'s list, in `format`.
    ///
    /// - Throws: what the list's own page would (an ``HTTPError`` for a bad query, a controller's
    ///   or cell's error), or a 500 ``HTTPError`` that names the identity when two rows of the
    ///   window share one.
    static func render(_ route: ListRoute, request: Request, format: WatchFormat, responder: ListResponder) throws -> WindowVersion {
        let pageRequest = try PageRequest(query: request.query, paging: route.paging)
        let controller = try responder.makeController(
            ListContext(request: request, listPath: route.path, page: pageRequest), route: route)
        var headers = HTTPHeaders()
        let (layout, page, _) = try responder.window(
            of: controller, pageRequest, request, route: route, path: format.listFormat, headers: &headers)
        let walk = TableWalk(controller: controller, layout: layout, window: page.window)
        // The pager's links keep the query's filters, not the items only the stream reads
        // (`_last-event-id`) nor those that do not name the window (ListWatchers.key).
        var query = request.query
        query.removeAll { $0.name.hasPrefix("_") || $0.name.hasPrefix("utm_") }
        let links = PageLinks(path: route.href(for: format.listFormat), query: query, page: page)
        // A row that fails is an error cell in the watched window, as on the page.
        let rowErrors = RowErrorReporter(request: request, route: route, controller: controller, log: responder.app.rowErrorLog)
        do {
            var version: WindowVersion
            if format == .json {
                version = try walked(
                    walk,
                    into: WindowVersionSink(
                        page: JSONTableSink(route: route, controller: controller, registry: responder.app.registry, rowErrors: rowErrors)))
                var json = JSONWriter()
                (controller as? any JSONItemWriting)?.writeListMembers(into: &json)
                version.liveHeader = json.takeBytes()
                json.pageMembers(page, links: links)
                version.pager = json.takeBytes()
            } else {
                let tableView = TableView(registry: responder.app.registry, selectionBase: route.hasDetail ? route.href : nil)
                tableView.rowErrorHandler = rowErrors
                let rows = HTMLTableSink(tableView: tableView, style: controller.style)
                if let editable = controller as? any EditableTableController,
                    let mode = EditingMode.watched(by: request, route: route, access: responder.app.editingAccess)
                {
                    // Editing mode's rows carry their controls, as the page writes them.
                    let sink = EditingTableSink(
                        page: rows, controller: editable, mode: mode, listHref: route.href, registry: responder.app.registry,
                        columnCount: controller.style.columns?.count)
                    version = try walked(walk, into: WindowVersionSink(page: sink))
                } else {
                    version = try walked(walk, into: WindowVersionSink(page: rows))
                }
                var html = HTMLWriter()
                Pager.write(page, links: links, paging: route.paging, into: &html)
                version.pager = html.takeBytes()
                controller.renderLiveHeader(into: &html)
                version.liveHeader = html.takeBytes()
            }
            return version
        } catch let error as SnapshotError {
            // The page itself renders such a list; its patches could not say which row is which.
            throw HTTPError(.internalServerError, "The list at \(route.path) cannot be watched: \(error)")
        }
    }

    /// The version `sink` keeps of the window `walk` goes through.
    private static func walked<Page: PageRowSink & ~Copyable>(_ walk: TableWalk, into sink: consuming WindowVersionSink<Page>) throws -> WindowVersion
    {
        var walk = walk
        _ = try walk.walk(into: &sink)
        return try sink.version()
    }

    /// The version as a window keeps it between changes: the comparison needs the identities and
    /// digests, not the rows' bytes (only rows that changed are sent, from the new version).
    var withoutRows: WindowVersion {
        var kept = self
        kept.rows = [:]
        return kept
    }

    /// The identity of the row at `indexPath` of the snapshot (positions, not the list's numbers).
    func identifier(at indexPath: IndexPath) -> String? {
        snapshot.item(at: indexPath)?.id
    }

    /// A digest of a row's bytes (``StableHash``): whether a row must be sent again.
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        var hash = StableHash()
        hash.combine(bytes: bytes)
        return hash.value
    }
}
