import ByteWriters
import MicroHTTP
import TableKit

/// The JSON write API of an app's own list whose controller adopts editing, in the shapes of a
/// database table's (Datasette 1.0's): `POST {list}/-/insert` with `{"row": {…}}` or
/// `{"rows": […]}`, `POST {list}/-/upsert` (the same, each row with an `"id"` changing that row),
/// `POST {list}/{id}/-/update` with `{"update": {…}}`, `POST {list}/{id}/-/delete`. The `{id}` is
/// the row's identifier (the JSON list's row `"id"`), percent- or tilde-encoded (`~2F` for `/`).
///
/// A row's members reach the controller as a form's fields do (its insert or editing form checks
/// each, `EditingContext` decodes them), so `commit(_:forRowAt:context:)` and
/// `commitEdit(forRowAt:context:)` serve a script unchanged; an update sends only the fields it
/// changes, the others keep the row's values. Inserted rows go at the end of the section the body
/// names (`"section"`: its index, identifier or title), else of the first with an insert row.
///
/// A batch never half-applies in silence: every row is checked against its form (and its row's
/// version) before any is committed, so a bad row refuses the whole request, naming its index;
/// then the rows are committed in order, each against the list as it is then. Should a commit
/// throw midway (the store full, the app's own check), the answer is that refusal with `"rows"`
/// listing the rows that went in, and nothing after them is tried.
///
/// `If-Match` takes the row's version (the one its editing form carries; on an upsert, each row it
/// changes must match one of its tags): a stale one is a 412, none is last-writer-wins unless
/// `--require-if-match` (428). Refusals are ``WriteAPIErrors``' shape; every watcher of the list
/// is told once per request.
struct ListWriteResponder {
    enum Kind: String, CaseIterable {
        case insert, upsert, update, delete

        var action: Action {
            switch self {
            case .insert, .upsert: .insert
            case .update: .update
            case .delete: .delete
            }
        }
    }

    let app: App.Snapshot
    let route: ListRoute
    let kind: Kind
    /// The server's own body limit (1 MiB unless configured), as a table's write API has.
    var limits = FormLimits(maxBodySize: 1 << 20)

    /// The paths this answers under a list's: `/-/insert` and `/-/upsert`, and `/:key/-/update`
    /// and `/:key/-/delete` (named as a database table's, which replace these where a list is a table).
    var pattern: String {
        kind == .insert || kind == .upsert ? route.path + "/-/\(kind.rawValue)" : route.path + "/:key/-/\(kind.rawValue)"
    }

    func respond(to request: Request) throws -> Response {
        try app.guardingHandler(of: request, at: pattern) { try write(request) }
    }

    private func write(_ request: Request) throws -> Response {
        guard request.body.count <= limits.maxBodySize else {
            throw HTTPError.payloadTooLarge("A change takes at most \(limits.maxBodySize) bytes; the request sent \(request.body.count).")
        }
        guard let access = app.editingAccess else { throw HTTPError(.forbidden, "This list cannot be changed here.") }
        try requirePermission(access, request, kind.action)
        // An upsert may change rows as well as add them, as a table's asks for both grants.
        if kind == .upsert { try requirePermission(access, request, .update) }
        let controller = try makeController(request)
        switch kind {
        case .insert, .upsert:
            return try writeRows(request, controller: controller)
        case .update:
            let body = try ListWriteBody(request.body, kind: .update, maxRows: 1)
            let identifier = Self.identifier(request)
            let indexPath = try row(identifier, of: controller, ifMatch: try conditions(request))
            guard let form = controller.editingForm(forRowAt: indexPath) else { throw HTTPError.badRequest("This row has no fields to update.") }
            let context = try Self.context(form, sent: body.rows[0], actor: request.actor)
            try Self.commit { try controller.commitEdit(forRowAt: indexPath, context: context) }
            let after = try makeController(request)
            let written = controller.identifier(forRowAt: indexPath)
            record(request, action: .update, rows: [written])
            var response = try Self.answer(status: .ok, row: body.returnsRows ? written : nil, of: after)
            if let now = after.indexPath(forRowWithIdentifier: written) {
                response.headers.replaceOrAdd(name: "ETag", value: "\"\(RowVersion.of(after, at: now))\"")
            }
            return response
        case .delete:
            let identifier = Self.identifier(request)
            let indexPath = try row(identifier, of: controller, ifMatch: try conditions(request))
            guard controller.canEditRow(at: indexPath), controller.editingStyle(forRowAt: indexPath) == .delete else {
                throw HTTPError.badRequest("This row cannot be deleted.")
            }
            try Self.commit { try controller.commit(.delete, forRowAt: indexPath, context: EditingContext(actor: request.actor)) }
            record(request, action: .delete, rows: [controller.identifier(forRowAt: indexPath)])
            return try Self.answer(status: .ok, of: controller)
        }
    }

    /// 401 for a visitor where signing in (or a bearer token) could allow it, 403 otherwise.
    private func requirePermission(_ access: EditingAccess, _ request: Request, _ action: Action) throws {
        guard !access.permits(request, action, on: route.path) else { return }
        if request.actor == nil, access.control != nil {
            throw HTTPError(
                .unauthorized, "Sign in, or send a bearer token (`cellar token create`) that may \(action.rawValue) here.",
                headers: ["WWW-Authenticate": "Bearer"])
        }
        let who = request.actor.map { "\($0) may not" } ?? "No one may"
        throw HTTPError(.forbidden, "\(who) \(action.rawValue) rows of this list: the list's permissions do not allow it.")
    }

    /// The list's controller as a request without a query sees it; 404 when it does not edit.
    func makeController(_ request: Request) throws -> any EditableTableController {
        var listRequest = request
        listRequest.method = .get
        listRequest.query = QueryItems()
        listRequest.rawQuery = nil
        listRequest.body = []
        let responder = ListResponder(app: app)
        let context = ListContext(request: listRequest, listPath: route.path, page: PageRequest(firstOf: route.paging))
        guard let controller = try responder.makeController(context, route: route) as? any EditableTableController else {
            throw HTTPError.notFound("\(route.title) cannot be changed: its rows are not editable.")
        }
        if let fetched = controller as? any FetchedPageController { try responder.guarded(listRequest, route: route) { try fetched.fetchPage() } }
        return controller
    }

    /// The row identifier the path names: percent-decoded by the router, then tilde-decoded as
    /// Datasette encodes a key (`~2F` a `/`, `~2C` a `,`, `~7E` a `~`).
    private static func identifier(_ request: Request) -> String { TildeEncoding.decoded(request.parameters["key"] ?? "") }

    /// The tags of `If-Match`, or nil without one; a 428 without one where the server requires it
    /// and the request changes an existing row (`required`).
    func conditions(_ request: Request, required: Bool = true) throws -> [String]? {
        guard let condition = request.headers["If-Match"] else {
            if app.requiresIfMatch, required {
                throw HTTPError(
                    HTTPStatus(code: 428), "This server requires If-Match with the row’s version on every change to an existing row.")
            }
            return nil
        }
        return condition.split(separator: ",").map { String(String($0).trimmingWhitespace) }
    }

    /// The row `identifier` names, at a version `ifMatch` allows: 404 when there is none, 412 when
    /// it changed since.
    private func row(_ identifier: String, of controller: any EditableTableController, ifMatch: [String]?) throws -> IndexPath {
        guard let indexPath = controller.indexPath(forRowWithIdentifier: identifier) else {
            throw HTTPError.notFound("\(route.title) has no row “\(identifier.prefix(80))”.")
        }
        try checkVersion(ifMatch, of: controller, at: indexPath)
        return indexPath
    }

    /// A 412 when the row at `indexPath` is at none of the versions `ifMatch` names (`*` is any).
    func checkVersion(_ ifMatch: [String]?, of controller: any EditableTableController, at indexPath: IndexPath) throws {
        guard let ifMatch else { return }
        let version = RowVersion.of(controller, at: indexPath)
        guard ifMatch.contains(where: { $0 == "*" || $0 == "\"\(version)\"" || $0 == version }) else {
            throw HTTPError(
                HTTPStatus(code: 412), "Someone else changed this row since that version: nothing was changed. Its version is now \"\(version)\".")
        }
    }

    /// The fields as `form` checks them: what was sent over the form's own values (an insert
    /// form's defaults, a row's current values), each field valid; a field the form lacks is a 400,
    /// an invalid value a 422 naming it.
    static func context(_ form: any FormController, sent: [String: String], actor: String?) throws -> EditingContext {
        let table = FormTable(form)
        var fields: [String: FormField] = [:]
        for field in table.fields { fields[field.name] = field }
        if let unknown = sent.keys.sorted().first(where: { fields[$0] == nil }) {
            let names = table.fields.map { "“\($0.name)”" }.joined(separator: ", ")
            throw HTTPError.badRequest("This list's rows have no field “\(unknown.prefix(80))”: they have \(names).")
        }
        var values = form.values
        values.merge(sent) { _, new in new }
        var errors: [String] = []
        for field in table.fields {
            let value = values[field.name]
            if let value, value.utf16.count > field.maxLength {
                errors.append("\(field.name): longer than \(field.maxLength) characters.")
            } else if let value, value.contains("\0") {
                errors.append("\(field.name): holds a NUL character.")
            } else if let message = field.validationMessage(for: value) {
                errors.append("\(field.name): \(message)")
            }
        }
        if !errors.isEmpty { throw HTTPError(.unprocessableContent, errors.joined(separator: " ")) }
        let checked = values
        return EditingContext(actor: actor, values: checked, makeDecoder: { FormValueDecoder(values: checked, fields: fields) })
    }

    /// Runs the controller's change: its ``EditingError`` is a 422 with its message, a value its
    /// form cannot decode a 422 too.
    static func commit(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as EditingError {
            throw HTTPError(.unprocessableContent, error.field.map { "\($0): \(error.message)" } ?? error.message)
        } catch let error as DecodingError {
            throw HTTPError(.unprocessableContent, "The row's values do not fit this list: \(describe(error))")
        }
    }

    /// `error` as the answer says it: an ``HTTPError`` as it is, anything else logged and a 500.
    func refusal(_ error: any Error, _ request: Request) -> HTTPError {
        if let error = error as? HTTPError { return error }
        app.logger.error(
            "a list change failed",
            metadata: [
                "request_id": "\(request.id)", "list": "\(route.path)", "error_type": "\(String(reflecting: type(of: error)))",
            ])
        return HTTPError(.internalServerError, "The change failed inside the server.")
    }

    /// `error` naming the row it concerns (`Row 3: …`) when the rows came as a batch.
    static func naming(_ error: HTTPError, row index: Int, of body: ListWriteBody) -> HTTPError {
        guard body.isBatch else { return error }
        var named = error
        named.message = "Row \(index): \(error.message)"
        return named
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "“\(key.stringValue)” is missing."
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            "“\(context.codingPath.map(\.stringValue).joined(separator: "."))” is not valid."
        @unknown default: "a value is not valid."
        }
    }

    static func identifiers(of controller: any EditableTableController) -> [String] {
        (0..<controller.numberOfSections).flatMap { section in
            (0..<controller.numberOfRows(inSection: section)).map { controller.identifier(forRowAt: IndexPath(row: $0, section: section)) }
        }
    }

    /// The change logged (actor, list, the rows' identifiers, never their values), counted in
    /// `/metrics` by row, and told once to the list's watchers.
    func record(_ request: Request, action: Kind, rows: [String]) {
        guard !rows.isEmpty else { return }
        app.logger.info(
            "list changed",
            metadata: [
                "request_id": "\(request.id)", "list": "\(route.path)", "action": "\(action.rawValue)",
                "rows": "\(rows.prefix(20).map { String($0.prefix(200)) }.joined(separator: ","))\(rows.count > 20 ? ",…" : "")",
                "actor": "\(request.actor ?? "")",
            ])
        app.metrics.countChange(list: route.path, action: action.rawValue, rows: rows.count)
        _ = app.watchers.numberedChange(at: route.path)
    }

    /// `{"ok": true}` with the rows (`"rows": […]`) or the row (`"row": {…}`) asked for, as the
    /// list's JSON shows each item.
    static func answer(
        status: HTTPStatus, rows: [String]? = nil, row: String? = nil, of controller: any EditableTableController
    ) throws -> Response {
        var json = JSONWriter()
        json.raw("{\"ok\":true")
        if let rows { try writeItems(rows, of: controller, into: &json) }
        if let row {
            json.raw(",\"row\":")
            try writeItem(row, of: controller, into: &json)
        }
        json.raw("}")
        return Response(
            status: status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: .storage(json.takeStorage()))
    }

    /// A batch stopped by `refusal` after its first `committed` rows went in:
    /// `{"ok": false, "errors": […], "rows": […]}`, the rows listed those that went in.
    static func partial(_ refusal: HTTPError, committed: Int, rows: [String], of controller: any EditableTableController) throws
        -> Response
    {
        var json = JSONWriter()
        json.raw("{\"ok\":false,\"errors\":[")
        json.string(refusal.message)
        json.raw(",")
        let went = committed == 1 ? "Row 0 was" : "Rows 0 to \(committed - 1) were"
        json.string("\(went) written (in “rows”, as the list now shows them), and none of the rows after.")
        json.raw("]")
        try writeItems(rows, of: controller, into: &json)
        json.raw("}")
        return Response(
            status: refusal.status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: .storage(json.takeStorage()))
    }

    /// `,"rows":[…]`: each row's item, in order.
    private static func writeItems(_ rows: [String], of controller: any EditableTableController, into json: inout JSONWriter) throws {
        json.raw(",\"rows\":[")
        for (index, identifier) in rows.enumerated() {
            if index > 0 { json.raw(",") }
            try writeItem(identifier, of: controller, into: &json)
        }
        json.raw("]")
    }

    /// The row's item as the list's JSON writes it; `null` for a row gone or without an item.
    private static func writeItem(_ identifier: String, of controller: any EditableTableController, into json: inout JSONWriter) throws {
        guard let indexPath = controller.indexPath(forRowWithIdentifier: identifier), let item = controller.item(forRowAt: indexPath) else {
            json.null()
            return
        }
        try JSONItemEncoder(specialValues: FoundationJSONValues.self).encode(item, into: &json)
    }
}
