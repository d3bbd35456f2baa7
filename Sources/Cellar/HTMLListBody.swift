import ByteWriters
import MicroHTTP
import Synchronization
import TableKit

/// A list as HTML, the full page or the rows fragment, written in steps so a large one can stream.
final class HTMLListBody: ListBody {
    private enum Stage {
        case head
        case table
        case tail
        case done
    }

    private let format: ListFormat
    private let route: ListRoute
    private let controller: any TableController
    private let page: Page
    private let links: PageLinks
    private let site: SiteLayout
    /// Who the page is for (nil: no one signed in).
    private let actor: String?
    /// The request's query, which the format links keep.
    private let query: QueryItems
    private var renderer: TableRenderer
    private let style: TableStyle
    private var stage = Stage.head
    /// Editing mode (``EditingMode``): rows with their controls, written whole (not streamed).
    private let editing: EditingMode?
    /// The request's query, when the list offers its actor editing mode (an "Edit" button).
    private let editQuery: QueryItems?

    init(
        format: ListFormat, route: ListRoute, controller: any TableController, layout: TableLayout, page: Page, links: PageLinks,
        site: SiteLayout, actor: String? = nil, tableView: TableView, editing: EditingMode? = nil, editQuery: QueryItems? = nil,
        query: QueryItems = QueryItems()
    ) {
        self.editing = controller is any EditableTableController ? editing : nil
        self.editQuery = editQuery
        self.query = query
        self.format = format
        self.route = route
        self.controller = controller
        self.page = page
        self.links = links
        self.site = site
        self.actor = actor
        style = controller.style
        renderer = TableRenderer(controller: controller, tableView: tableView, layout: layout, window: page.window, style: style)
    }

    convenience init(_ parts: ListBodyParts) {
        let tableView = TableView(registry: parts.registry, selectionBase: parts.route.hasDetail ? parts.route.href : nil)
        tableView.rowErrorHandler = parts.rowErrors
        self.init(
            format: parts.format, route: parts.route, controller: parts.controller, layout: parts.layout, page: parts.page,
            links: parts.links, site: parts.site, actor: parts.actor, tableView: tableView, editQuery: parts.editQuery, query: parts.query)
    }

    /// The type of the last controller found not to be a ``SearchableController``: the cast
    /// searches the runtime's conformances, and a list's controller is of the same type request
    /// after request. A type's conformances do not change while it runs.
    private static let lastUnsearchableType = Atomic<UInt>(0)

    /// `controller` as a ``SearchableController``, or nil when its type is not one.
    static func searchable(_ controller: any TableController) -> (any SearchableController)? {
        let type = UInt(bitPattern: ObjectIdentifier(Swift.type(of: controller)))
        if lastUnsearchableType.load(ordering: .relaxed) == type { return nil }
        if let searchable = controller as? any SearchableController { return searchable }
        lastUnsearchableType.store(type, ordering: .relaxed)
        return nil
    }

    private var isLoadingPlaceholder: Bool {
        if case .loading = controller.action, format == .page { return true }
        return false
    }

    func write(into bytes: inout ByteBuffer, pausingAt limit: Int) throws -> Bool {
        var html = HTMLWriter(buffer: exchange(&bytes, with: ByteBuffer()))
        defer { bytes = html.takeBuffer() }
        while true {
            switch stage {
            case .head:
                if format == .page { writePageHead(into: &html) }
                stage = isLoadingPlaceholder ? .tail : .table
                // The fragment's sections are `<tbody>`s, which "Load more" adds to the page's table.
                if stage == .table, format == .page, let columns = style.columns {
                    ColumnsTable.writeOpening(columns, title: route.title, editing: editing != nil, into: &html)
                }
            case .table:
                if let editing, let editable = controller as? any EditableTableController {
                    try renderEditing(editable, mode: editing, into: &html)
                } else if try !renderer.render(into: &html, pausingAt: limit) {
                    return false
                }
                if format == .page, style.columns != nil { ColumnsTable.writeClosing(into: &html) }
                stage = .tail
            case .tail:
                Pager.write(page, links: links, paging: route.paging, into: &html)
                if format == .page { site.writeTail(title: controller.title, currentPath: route.navigationHref, into: &html) }
                stage = .done
            case .done:
                return true
            }
            if html.count >= limit { return stage == .done }
        }
    }

    /// The `<main>`'s classes: the layout's, and `editing-view` in editing mode.
    private var mainClass: StaticString {
        switch (style.columns == nil, editing == nil) {
        case (true, true): "table-view"
        case (false, true): "table-view columns-view"
        case (true, false): "table-view editing-view"
        case (false, false): "table-view columns-view editing-view"
        }
    }

    private func writePageHead(into html: inout HTMLWriter) {
        site.writeHead(
            title: route.title, currentPath: route.navigationHref, into: &html, mainClass: mainClass,
            // Editing mode is live too: its window's patched rows carry their controls (``EditingMode/watched(by:route:access:)``).
            listName: route.listName, infiniteScroll: route.infiniteScroll && editing == nil, actor: actor)
        if let parent = route.parent { DetailPage.writeBackLink(to: parent.href, title: parent.title, into: &html) }
        html.element("h1", text: route.title)
        html.raw("\n")
        if let editing {
            editing.writeToolbar(listHref: route.href, into: &html)
        } else if let editQuery {
            EditingMode.writeEditButton(listHref: route.href, query: editQuery, into: &html)
        }
        switch controller.action {
        case .alert(let alert):
            html.raw("<div class=\"alert alert-")
            html.text(alert.style.rawValue)
            html.raw("\" role=\"alert\">")
            html.text(alert.message)
            html.raw("</div>\n")
        case .loading(let message):
            links.withURL(page.current, fragment: true) { fragment in
                html.raw("<div class=\"loading\" aria-busy=\"true\"")
                html.attribute("data-loading-src", utf8: fragment)
                html.raw("><p>")
                html.text(message)
                html.raw("</p><noscript><p><a")
                html.attribute("href", utf8: fragment)
                html.raw(">Show the rows</a></p></noscript></div>\n")
            }
        case .render, .redirect:
            break
        }
        if let searchable = Self.searchable(controller) {
            html.raw("<form class=\"search\" role=\"search\" method=\"get\"")
            html.attribute("action", route.href)
            html.raw("><label for=\"q\">")
            html.text(searchable.searchPrompt)
            html.raw("</label> <input type=\"search\" id=\"q\" name=\"q\"")
            html.attribute("value", searchable.searchTerm)
            html.raw(">")
            // A new search keeps the list's filters and order: the query's other items ride along.
            for item in query where item.name != "q" && !ListFormat.isPlaceItem(item.name) {
                html.raw("<input type=\"hidden\"")
                html.attribute("name", item.name)
                html.attribute("value", item.value)
                html.raw(">")
            }
            html.raw(" <button type=\"submit\">Search</button></form>\n")
        }
        controller.renderTableHeader(into: &html)
        if !Self.placesFormatLinks(controller) {
            html.raw("<p class=\"list-formats\">Also as ")
            ListFormat.writeLinks(toListAt: route.href, query: query, into: &html)
            html.raw("</p>\n")
        }
    }

    /// The type of the last controller found not to be a ``FormatLinksPlacing`` (as for
    /// ``searchable(_:)``: the cast searches the runtime's conformances).
    private static let lastTypeWithoutLinks = Atomic<UInt>(0)

    /// Whether the controller writes its list's format links itself.
    static func placesFormatLinks(_ controller: any TableController) -> Bool {
        let type = UInt(bitPattern: ObjectIdentifier(Swift.type(of: controller)))
        if lastTypeWithoutLinks.load(ordering: .relaxed) == type { return false }
        if controller is any FormatLinksPlacing { return true }
        lastTypeWithoutLinks.store(type, ordering: .relaxed)
        return false
    }
}

extension HTMLListBody {
    /// The rows in editing mode, each with its controls (``EditingTableSink``), in one go.
    private func renderEditing(_ controller: any EditableTableController, mode: EditingMode, into html: inout HTMLWriter) throws {
        var walk = TableWalk(controller: controller, layout: renderer.layout, window: renderer.window)
        var sink = EditingTableSink(
            page: HTMLTableSink(tableView: renderer.tableView, style: style), controller: controller, mode: mode, listHref: route.href,
            registry: renderer.tableView.registry, columnCount: style.columns?.count)
        swap(&sink.page.html, &html)
        defer { swap(&sink.page.html, &html) }
        _ = try walk.walk(into: &sink)
    }
}

/// A list response body that can be written in steps.
protocol ListBody: AnyObject {
    /// Appends to `bytes` until done or until it holds `limit` bytes; returns whether it is done.
    func write(into bytes: inout ByteBuffer, pausingAt limit: Int) throws -> Bool
}
