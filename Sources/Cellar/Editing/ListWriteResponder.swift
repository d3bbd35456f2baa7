import ByteWriters
import MicroHTTP
import TableKit

/// The JSON write API of an app's own list whose controller adopts editing, in the shapes of a
/// database table's (Datasette 1.0's): `POST {list}/-/insert` with `{"row": {…}}`,
/// `POST {list}/{id}/-/update` with `{"update": {…}}`, `POST {list}/{id}/-/delete`.
///
/// A row's members reach the controller as a form's fields do (its insert or editing form checks
/// each, `EditingContext` decodes them), so `commit(_:forRowAt:context:)` and
/// `commitEdit(forRowAt:context:)` serve a script unchanged; an update sends only the fields it
/// changes, the others keep the row's values. Rows go in one at a time (`"rows"` is a 400: an app's
/// store promises no all-or-nothing batch), at the end of the first section with an insert row.
/// `If-Match` takes the row's version (the one its editing form carries): a stale one is a 412,
/// none is last-writer-wins unless `--require-if-match` (428). Refusals are
/// ``WriteAPIErrors``' shape; every watcher of the list is told of a change made.
struct ListWriteResponder {
    enum Kind: String {
        case insert, update, delete

        var action: Action {
            switch self {
            case .insert: .insert
            case .update: .update
            case .delete: .delete
            }
        }
    }

    let app: App.Snapshot
    let route: ListRoute
    let kind: Kind
    var limits = FormLimits()

    /// The paths this answers under a list's: `/-/insert`, and `/:key/-/update` and `/:key/-/delete`
    /// (named as a database table's, which replace these where a list is a table).
    var pattern: String { kind == .insert ? route.path + "/-/insert" : route.path + "/:key/-/\(kind.rawValue)" }

    func respond(to request: Request) throws -> Response {
        try app.guardingHandler(of: request, at: pattern) { try write(request) }
    }

    private func write(_ request: Request) throws -> Response {
        guard request.body.count <= limits.maxBodySize else {
            throw HTTPError.payloadTooLarge("A change takes at most \(limits.maxBodySize) bytes; the request sent \(request.body.count).")
        }
        guard let access = app.editingAccess else { throw HTTPError(.forbidden, "This list cannot be changed here.") }
        try requirePermission(access, request)
        let controller = try makeController(request)
        let context: EditingContext
        let place: IndexPath
        switch kind {
        case .insert:
            let body = try ListWriteBody(request.body, rowMember: "row")
            guard let section = (0..<controller.numberOfSections).first(where: { controller.insertForm(inSection: $0) != nil }),
                let form = controller.insertForm(inSection: section)
            else { throw HTTPError.badRequest("\(route.title) has no insert row: rows cannot be added to it.") }
            context = try Self.context(form, sent: body.fields, actor: request.actor)
            place = IndexPath(row: controller.numberOfRows(inSection: section), section: section)
            let before = Set(Self.identifiers(of: controller))
            try commit { try controller.commit(.insert, forRowAt: place, context: context) }
            let after = try makeController(request)
            let added = Self.identifiers(of: after).first { !before.contains($0) }
            return try done(request, status: .created, rows: body.returnsRow ? (added.map { [$0] } ?? []) : nil, of: after)
        case .update:
            let body = try ListWriteBody(request.body, rowMember: "update")
            let indexPath = try row(request, of: controller)
            guard let form = controller.editingForm(forRowAt: indexPath) else { throw HTTPError.badRequest("This row has no fields to update.") }
            context = try Self.context(form, sent: body.fields, actor: request.actor)
            try commit { try controller.commitEdit(forRowAt: indexPath, context: context) }
            let after = try makeController(request)
            let identifier = controller.identifier(forRowAt: indexPath)
            var response = try done(request, status: .ok, row: body.returnsRow ? identifier : nil, of: after)
            if let now = after.indexPath(forRowWithIdentifier: identifier) {
                response.headers.replaceOrAdd(name: "ETag", value: "\"\(RowVersion.of(after, at: now))\"")
            }
            return response
        case .delete:
            let indexPath = try row(request, of: controller)
            guard controller.canEditRow(at: indexPath), controller.editingStyle(forRowAt: indexPath) == .delete else {
                throw HTTPError.badRequest("This row cannot be deleted.")
            }
            try commit { try controller.commit(.delete, forRowAt: indexPath, context: EditingContext(actor: request.actor)) }
            return try done(request, status: .ok, rows: nil, of: controller)
        }
    }

    /// 401 for a visitor where signing in (or a bearer token) could allow it, 403 otherwise.
    private func requirePermission(_ access: EditingAccess, _ request: Request) throws {
        guard !access.permits(request, kind.action, on: route.path) else { return }
        if request.actor == nil, access.control != nil {
            throw HTTPError(
                .unauthorized, "Sign in, or send a bearer token (`cellar token create`) that may \(kind.action.rawValue) here.",
                headers: ["WWW-Authenticate": "Bearer"])
        }
        let who = request.actor.map { "\($0) may not" } ?? "No one may"
        throw HTTPError(.forbidden, "\(who) \(kind.action.rawValue) rows of this list: the list's permissions do not allow it.")
    }

    /// The list's controller as a request without a query sees it; 404 when it does not edit.
    private func makeController(_ request: Request) throws -> any EditableTableController {
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

    /// The row the path names, at the version `If-Match` names: 404 when there is none, 412 when
    /// it changed since, 428 without `If-Match` where the server requires it.
    private func row(_ request: Request, of controller: any EditableTableController) throws -> IndexPath {
        let identifier = request.parameters["key"] ?? ""
        guard let indexPath = controller.indexPath(forRowWithIdentifier: identifier) else {
            throw HTTPError.notFound("\(route.title) has no row “\(identifier.prefix(80))”.")
        }
        guard let condition = request.headers["If-Match"] else {
            if app.requiresIfMatch {
                throw HTTPError(
                    HTTPStatus(code: 428), "This server requires If-Match with the row’s version on every change to an existing row.")
            }
            return indexPath
        }
        let version = RowVersion.of(controller, at: indexPath)
        let tags = condition.split(separator: ",").map { String($0).trimmingWhitespace }
        guard tags.contains(where: { $0 == "*" || $0 == "\"\(version)\"" || $0 == version }) else {
            throw HTTPError(
                HTTPStatus(code: 412), "Someone else changed this row since that version: nothing was changed. Its version is now \"\(version)\".")
        }
        return indexPath
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
    private func commit(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as EditingError {
            throw HTTPError(.unprocessableContent, error.field.map { "\($0): \(error.message)" } ?? error.message)
        } catch let error as DecodingError {
            throw HTTPError(.unprocessableContent, "The row's values do not fit this list: \(Self.describe(error))")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "“\(key.stringValue)” is missing."
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            "“\(context.codingPath.map(\.stringValue).joined(separator: "."))” is not valid."
        @unknown default: "a value is not valid."
        }
    }

    private static func identifiers(of controller: any EditableTableController) -> [String] {
        (0..<controller.numberOfSections).flatMap { section in
            (0..<controller.numberOfRows(inSection: section)).map { controller.identifier(forRowAt: IndexPath(row: $0, section: section)) }
        }
    }

    /// The change logged, counted and told to the list's watchers; then `{"ok": true}` with the
    /// rows (`"rows": […]`) or the row (`"row": {…}`) asked for, as the list's JSON shows each item.
    private func done(
        _ request: Request, status: HTTPStatus, rows: [String]? = nil, row: String? = nil, of controller: any EditableTableController
    ) throws -> Response {
        app.logger.info(
            "list changed",
            metadata: [
                "request_id": "\(request.id)", "list": "\(route.path)", "action": "\(kind.rawValue)",
                "row": "\(request.parameters["key"].map { String($0.prefix(200)) } ?? "")", "actor": "\(request.actor ?? "")",
            ])
        app.metrics.countChange(list: route.path, action: kind.rawValue)
        _ = app.watchers.numberedChange(at: route.path)
        var json = JSONWriter()
        json.raw("{\"ok\":true")
        if let rows {
            json.raw(",\"rows\":[")
            for (index, identifier) in rows.enumerated() {
                if index > 0 { json.raw(",") }
                try Self.writeItem(identifier, of: controller, into: &json)
            }
            json.raw("]")
        }
        if let row {
            json.raw(",\"row\":")
            try Self.writeItem(row, of: controller, into: &json)
        }
        json.raw("}")
        return Response(
            status: status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: .storage(json.takeStorage()))
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
