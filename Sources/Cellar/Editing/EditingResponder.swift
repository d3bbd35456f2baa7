import MicroHTTP
import TableKit

/// Answers `POST {list}/-/editing`, where every control of editing mode posts: finds the row by
/// its identifier, checks the actor's permission and the row's version, calls the controller, tells
/// the list's watchers, and sends the browser back to the list in editing mode (303), with an
/// Undo after a delete. A refusal is the list again with the message in the row: 409 when the row
/// changed since the page showed it (nothing overwritten), 422 when the commit or the form refused.
///
/// A page's script sends the same form with `Prefer: return=minimal` (RFC 7240): a change made is
/// then a 204 that says which batch of the list's event stream will show it
/// (`Cellar-Change-Sequence`), and after a delete the Undo token (`Cellar-Undo`); the page changes
/// only through that batch, never twice. A refusal is answered as to a form.
struct EditingResponder {
    static let pathSuffix = "/-/editing"
    static let sequenceHeader = "Cellar-Change-Sequence"
    static let undoHeader = "Cellar-Undo"
    let app: App.Snapshot
    let route: ListRoute
    var limits = FormLimits()

    func respond(to request: Request) throws -> Response {
        try app.guardingHandler(of: request, at: route.path + Self.pathSuffix) { try change(request) }
    }

    private func change(_ request: Request) throws -> Response {
        guard request.body.count <= limits.maxBodySize else {
            throw HTTPError.payloadTooLarge("A change takes at most \(limits.maxBodySize) bytes; the request sent \(request.body.count).")
        }
        let items = try request.formItems()
        guard items.count <= limits.maxFieldCount else {
            throw HTTPError.badRequest("The change sent \(items.count) fields; it takes at most \(limits.maxFieldCount).")
        }
        let change = try EditingChange(items["_do"])
        guard let access = app.editingAccess else { throw HTTPError(.forbidden, "This list cannot be changed here.") }
        try access.require(request, change.permission, on: route.path)
        let listQuery = EditingMode.listQuery(of: (try? QueryItems(parsing: items["_return"] ?? "")) ?? QueryItems())
        var listRequest = request
        listRequest.method = .get
        listRequest.query = listQuery
        listRequest.rawQuery = listQuery.isEmpty ? nil : listQuery.percentEncoded
        listRequest.body = []
        let responder = ListResponder(app: app)
        // The page the person changed a row of, as its forms carry it back (`_return`).
        let page = (try? PageRequest(query: listQuery, paging: route.paging)) ?? PageRequest(firstOf: route.paging)
        let context = ListContext(request: listRequest, listPath: route.path, page: page)
        guard let controller = try responder.makeController(context, route: route) as? any EditableTableController else {
            throw HTTPError.notFound("\(route.title) cannot be edited.")
        }
        // A controller of one fetched page (a database table's) finds the row among that page's rows.
        if let fetched = controller as? any FetchedPageController { try responder.guarded(listRequest, route: route) { try fetched.fetchPage() } }
        var mode = EditingMode(
            allowed: EditingMode.allowed(listRequest, route: route, access: access), actionPath: route.href + Self.pathSuffix,
            listQuery: listQuery)
        let refusal = { (status: HTTPStatus, mode: EditingMode) throws -> Response in
            try responder.editingPage(listRequest, route: route, mode: mode, status: status)
        }
        var change_ = ChangeRequest(request: request, items: items, controller: controller, limits: limits)
        do {
            let extra = try change_.make(change, mode: &mode, keys: access.keys, now: access.now(), listPath: route.path)
            app.logger.info(
                "list changed",
                metadata: [
                    "request_id": "\(request.id)", "list": "\(route.path)", "action": "\(change.logName)",
                    "row": "\(change_.rowIdentifier ?? "")", "actor": "\(request.actor ?? "")",
                ])
            app.metrics.countChange(list: route.path, action: change.logName)
            let sequence = app.watchers.numberedChange(at: route.path)
            if Self.prefersMinimal(request) { return Self.done(sequence: sequence, extra) }
            return .redirect(to: mode.href(listHref: route.href, extra))
        } catch let refused as ChangeRequest.Refused {
            return try refusal(refused.status, mode)
        } catch let error as EditingError {
            change_.place(error.message, field: error.field, in: &mode)
            return try refusal(.unprocessableContent, mode)
        } catch let error as HTTPError {
            throw error
        } catch {
            app.logger.error(
                "change failed",
                metadata: [
                    "request_id": "\(request.id)", "list": "\(route.path)", "action": "\(change.logName)",
                    "error": "\(String(describing: error))", "error_type": "\(String(reflecting: type(of: error)))",
                ])
            var message = "The change was not made: the server could not make it."
            if app.showsErrorDetails { message += " \(String(reflecting: type(of: error))): \(String(describing: error))" }
            change_.place(message, field: nil, in: &mode)
            return try refusal(.unprocessableContent, mode)
        }
    }

    /// Whether the request asks for no body back (`Prefer: return=minimal`).
    static func prefersMinimal(_ request: Request) -> Bool {
        guard let prefer = request.headers["Prefer"] else { return false }
        return prefer.split(separator: ",").contains { preference in
            preference.split(separator: ";").first.map { String($0.filter { $0 != " " && $0 != "\t" }) } == "return=minimal"
        }
    }

    /// The 204 of a change made for a script: the change's sequence, and the Undo a delete leaves.
    private static func done(sequence: UInt64, _ extra: [(String, String)]) -> Response {
        var headers = HTTPHeaders()
        headers.add(name: sequenceHeader, value: String(sequence))
        headers.add(name: "Preference-Applied", value: "return=minimal")
        headers.add(name: "Cache-Control", value: "no-store")
        if let undo = extra.first(where: { $0.0 == EditingMode.undoName }) { headers.add(name: undoHeader, value: undo.1) }
        return Response(status: .noContent, headers: headers)
    }
}
