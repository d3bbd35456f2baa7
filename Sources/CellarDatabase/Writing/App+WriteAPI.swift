import ByteWriters
import Cellar
import FoundationEssentials
import MicroHTTP

extension App {
    /// Mounts a table's JSON write API, in Datasette 1.0's shapes: `POST {list}/-/insert` and
    /// `{list}/-/upsert` (`{"row": {…}}` or `{"rows": […]}`, `"return": true`; an insert also
    /// `"ignore"` or `"replace"`), `POST {list}/{key}/-/update` (`{"update": {…}}`) and
    /// `{list}/{key}/-/delete`. Each is allowed by the permissions' `insert`, `update` or `delete`
    /// on the list, takes `If-Match` with a row's version (its page's `ETag`), answers
    /// `{"ok": true, …}` or `{"ok": false, "errors": […]}`, and has every watcher of the
    /// database's lists told at once after its transaction commits.
    ///
    /// - Parameter readOnly: why the table takes no writes, when it does not (a view, no key,
    ///   `writable: false`, a search index it would leave behind); its write paths answer 403 saying so.
    func mountWriteAPI(_ list: TableList, catalog: DatabaseCatalog, readOnly: String?) {
        let name = list.schema.name
        let path = list.path
        let handle = { @Sendable (action: Action, request: Request, body: (any TableWriting, TableList, WriteRequest) throws -> Response) throws in
            try self.performWrite(action, request: request, table: name, catalog: catalog, readOnly: readOnly, body)
        }
        route(.post, path + "/-/insert") { request in
            try handle(.insert, request) { writer, list, write in
                let body = try write.decode(InsertBody.self)
                let rows = try write.rows(single: body.row, many: body.rows)
                if body.ignore == true, body.replace == true {
                    throw RowWriteError.badRequest("“ignore” and “replace” cannot both be true.")
                }
                let expectedVersion = body.replace == true ? try write.expectedVersion() : nil
                let conflict: TableWriter.Conflict = body.replace == true ? .replace : body.ignore == true ? .ignore : .abort
                let stored = try writer.insert(
                    rows.map(writer.values), conflict: conflict, expectedVersion: expectedVersion, returning: body.return == true)
                self.logChange("insert", list: list, count: rows.count, request: request)
                return Self.okResponse(.created, rows: body.return == true ? stored : nil, of: list)
            }
        }
        route(.post, path + "/-/upsert") { request in
            try handle(.insert, request) { writer, list, write in
                try self.requireWrite(.update, on: path, request: request)
                let expectedVersion = try write.expectedVersion()
                let body = try write.decode(InsertBody.self)
                let rows = try write.rows(single: body.row, many: body.rows)
                let stored = try writer.upsert(rows.map(writer.values), expectedVersion: expectedVersion, returning: body.return == true)
                self.logChange("upsert", list: list, count: rows.count, request: request)
                return Self.okResponse(.ok, rows: body.return == true ? stored : nil, of: list)
            }
        }
        route(.post, path + "/:key/-/update") { request in
            try handle(.update, request) { writer, list, write in
                let key = try write.key(of: list)
                let body = try write.decode(UpdateBody.self)
                let stored = try writer.update(
                    key: key, values: writer.values(of: body.update), expectedVersion: try write.expectedVersion())
                self.logChange("update", list: list, key: write.identifier, request: request)
                var response = body.return == true ? Self.okResponse(.ok, row: stored, of: list) : Self.okResponse(.ok, rows: nil, of: list)
                response.headers.replaceOrAdd(name: "ETag", value: RowVersion.entityTag(stored.version))
                return response
            }
        }
        route(.post, path + "/:key/-/delete") { request in
            try handle(.delete, request) { writer, list, write in
                let key = try write.key(of: list)
                do {
                    try writer.delete(key: key, expectedVersion: try write.expectedVersion())
                } catch let error as RowWriteError where error.status.code == 412 && WriteAPIErrors.isBrowserForm(request) {
                    // The row page's button, from a page that showed another version: the row as it is now.
                    throw HTTPError(
                        .conflict, "Someone else changed this row since its page was shown: nothing was deleted. Look at it again before deleting it."
                    )
                }
                self.logChange("delete", list: list, key: write.identifier, request: request)
                // The row page's Delete button, a form: back to the list (Post/Redirect/Get).
                if request.headers["Accept"]?.contains("text/html") == true { return .redirect(to: ListRoute.percentEncodedPath(list.path)) }
                return Self.okResponse(.ok, rows: nil, of: list)
            }
        }
    }

    /// Runs one write request: the database writable, the table too, the actor allowed; then
    /// `body`, and every list of the database told. A refusal is answered in the API's error shape,
    /// or, to a browser's form (a row page's Delete button), thrown to be shown as a page.
    private func performWrite(
        _ action: Action, request: Request, table name: String, catalog: DatabaseCatalog, readOnly: String?,
        _ body: (any TableWriting, TableList, WriteRequest) throws -> Response
    ) throws -> Response {
        let browserForm = WriteAPIErrors.isBrowserForm(request)
        let database = catalog.database
        do {
            guard database.isWritable else {
                throw RowWriteError(.forbidden, "This database is served read-only: start Cellar with --writable to change it.")
            }
            if let readOnly { throw RowWriteError(.forbidden, readOnly) }
            let (list, lists) = try catalog.lastKnownList(named: name)
            try requireWrite(action, on: list.path, request: request)
            let write = WriteRequest(request: request, options: database.options)
            let response = try body(try database.tableWriter(for: list), list, write)
            for other in lists.byName.values { watchers.listDidChange(at: other.path) }
            return response
        } catch let error as RowWriteError {
            if browserForm { throw HTTPError(error.status, error.message) }
            return WriteAPIErrors.response(error.status, [error.message])
        } catch let error as HTTPError {
            if browserForm { throw error }
            var response = WriteAPIErrors.response(error.status, [error.message])
            for (name, value) in error.headers { response.headers.replaceOrAdd(name: name, value: value) }
            return response
        } catch {
            logger.error("a write failed", metadata: ["list": "\(name)", "error": "\(error)"])
            if browserForm { throw HTTPError(.internalServerError, "The change failed inside the server; nothing was written.") }
            return WriteAPIErrors.response(.internalServerError, ["The change failed inside the server; nothing was written."])
        }
    }

    /// Refuses a request whose actor may not do `action` on the list at `path`: 401 when no one is
    /// signed in (a script without a token), 403 otherwise. With no permissions configured at
    /// all, no one may write.
    private func requireWrite(_ action: Action, on path: String, request: Request) throws {
        guard let control = accessControl else {
            throw RowWriteError(
                .forbidden, "No one may \(action.rawValue) here: grant it in the configuration’s permissions (\(action.rawValue): [an account]).")
        }
        guard control.permits(request, action, on: path) else {
            if request.actor == nil {
                throw HTTPError(
                    .unauthorized, "Sign in, or send a bearer token (`cellar token create`) that may \(action.rawValue) here.",
                    headers: ["WWW-Authenticate": "Bearer"])
            }
            throw RowWriteError(.forbidden, "\(request.actor ?? "") may not \(action.rawValue) rows of this list.")
        }
    }

    /// A line for each change: who, which list, which row (its key, never its values), what; and
    /// the change counted in `/metrics` (`cellar_row_changes_total`, by list and action).
    func logChange(_ action: String, list: TableList, key: String? = nil, count: Int = 1, request: Request) {
        logger.info(
            "row change",
            metadata: [
                "actor": "\(request.actor ?? "-")", "list": "\(list.path)", "action": "\(action)",
                key == nil ? "rows" : "key": "\(key.map { String($0.prefix(200)) } ?? String(count))",
            ])
        metrics.countChange(list: list.path, action: action, rows: count)
    }

    /// `{"ok": true}`, with the rows written when asked for.
    static func okResponse(_ status: HTTPStatus, rows: [TableWriter.StoredRow]?, of list: TableList) -> Response {
        var json = JSONWriter()
        json.raw("{\"ok\":true")
        if let rows {
            json.raw(",\"rows\":[")
            for (index, row) in rows.enumerated() {
                if index > 0 { json.raw(",") }
                writeRow(row, of: list, into: &json)
            }
            json.raw("]")
        }
        json.raw("}")
        return Response(status: status, headers: ["Content-Type": "application/json"], body: .storage(json.takeStorage()))
    }

    /// `{"ok": true, "row": {…}}`, as an update with `"return": true` answers.
    static func okResponse(_ status: HTTPStatus, row: TableWriter.StoredRow, of list: TableList) -> Response {
        var json = JSONWriter()
        json.raw("{\"ok\":true,\"row\":")
        writeRow(row, of: list, into: &json)
        json.raw("}")
        return Response(status: status, headers: ["Content-Type": "application/json"], body: .storage(json.takeStorage()))
    }

    /// A row as an object of its columns (and its rowid, for a table keyed by it), as a row's JSON
    /// item writes its values.
    static func writeRow(_ row: TableWriter.StoredRow, of list: TableList, into json: inout JSONWriter) {
        json.raw("{")
        var first = true
        if let rowID = row.rowID, let name = list.schema.key.first {
            json.key(name)
            json.number(Int(rowID))
            first = false
        }
        for (index, (column, value)) in zip(list.columns, row.values).enumerated() where !list.isSecret(index) {
            if !first { json.raw(",") }
            first = false
            json.key(column.name)
            switch value {
            case .null: json.null()
            case .integer(let integer): json.number(Int(integer))
            case .real(let real): if real.isFinite { json.number(real) } else { json.null() }
            case .text(let text): json.string(text)
            case .blob(let bytes):
                json.raw("{\"$base64\":")
                json.string(bytes.withUnsafeBufferPointer(base64Text))
                json.raw("}")
            }
        }
        json.raw("}")
    }
}
