import ByteWriters
import MicroHTTP
import TableKit

extension ListResponder {
    /// The list's page (or its rows fragment) in editing mode, with `status`: 200 for `?editing=1`,
    /// 409 or 422 for a change refused (its message in the row). One buffer, never stored: it holds
    /// forms, versions and perhaps what someone typed.
    func editingPage(_ request: Request, route: ListRoute, mode: EditingMode, status: HTTPStatus, format: ListFormat = .page) throws
        -> Response
    {
        let pageRequest = try PageRequest(query: request.query, paging: route.paging)
        let controller = try makeController(ListContext(request: request, listPath: route.path, page: pageRequest), route: route)
        var headers = HTTPHeaders()
        let (layout, page, links) = try window(of: controller, pageRequest, request, route: route, path: .page, headers: &headers)
        let rowErrors = RowErrorReporter(request: request, route: route, controller: controller, log: app.rowErrorLog)
        let tableView = TableView(registry: app.registry, selectionBase: route.hasDetail ? route.href : nil)
        tableView.rowErrorHandler = rowErrors
        let body = HTMLListBody(
            format: format, route: route, controller: controller, layout: layout, page: page, links: links,
            site: app.visibleSite(for: request), actor: request.actor, tableView: tableView, editing: mode, query: request.query)
        var bytes = ByteBuffer(capacity: 32 * 1024)
        _ = try guarded(request, route: route) { try body.write(into: &bytes, pausingAt: .max) }
        headers.replaceOrAdd(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return Response(status: status, headers: headers, body: .storage(bytes.takeStorage()))
    }
}
