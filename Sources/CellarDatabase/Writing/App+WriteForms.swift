import Cellar
import MicroHTTP
import TableKit

extension App {
    /// Mounts a writable table's forms, made from its schema (``TableForm``), for browsers without
    /// JavaScript: `{list}/-/new` adds a row and `{list}/{key}/-/edit` changes one, each a 303 to
    /// the row's page once saved. A constraint the row breaks is a 422 with the message on its
    /// field and the values kept. The edit form carries the row's version in its address (a GET
    /// without one is sent to the address with it): a save after someone else changed the row is
    /// refused, each changed field showing its value now beside the person's own.
    func mountWriteForms(_ list: TableList, catalog: DatabaseCatalog) {
        guard catalog.database.isWritable else { return }
        let name = list.schema.name
        let database = catalog.database
        mountChoiceSearch(list, catalog: catalog)
        form(
            list.path + "/-/new", title: "New row of \(list.title)",
            { request in
                let (list, lists) = try catalog.lastKnownList(named: name)
                try self.requireForForm(.insert, on: list.path, request: request)
                // Values in the address: the form as the foreign-key search's page sends it back.
                let values = Self.sentValues(request, of: list, editing: false)
                let searches = try Self.choiceSearches(
                    for: list, lists: lists, in: database, values: values, chooseAction: ListRoute.percentEncodedPath(list.path) + "/-/choose")
                return TableForm(
                    list: list, editing: false, values: values, choices: try Self.choices(for: list, lists: lists, in: database), searches: searches)
            },
            submit: { (sent: [String: String], request: Request) in
                let (list, lists) = try catalog.lastKnownList(named: name)
                try self.requireForForm(.insert, on: list.path, request: request)
                let tableWriter = try database.tableWriter(for: list)
                let stored = try Self.formErrors(list: list) {
                    try tableWriter.insert([Self.values(sent, of: list, editing: false)], conflict: .abort, returning: true)
                }
                self.logChange("insert", list: list, request: request)
                for other in lists.byName.values { self.watchers.listDidChange(at: other.path) }
                return .created(at: Self.rowPath(stored.first, of: list))
            })
        form(
            list.path + "/:key/-/edit", title: "Edit a row of \(list.title)",
            { request in
                let (list, lists) = try catalog.lastKnownList(named: name)
                // The start-up check renders the form without a row.
                guard let identifier = request.parameters["key"] else {
                    return TableForm(list: list, editing: true, values: [:], choices: [:])
                }
                try self.requireForForm(.update, on: list.path, request: request)
                let key = try WriteRequest(request: request, options: database.options).key(of: list)
                guard let row = try database.tableWriter(for: list).row(at: key) else {
                    throw HTTPError.notFound("\(list.title) has no row “\(identifier.prefix(80))”.")
                }
                guard request.query["version"] != nil else {
                    throw HTTPError(
                        .seeOther, "The form is at an address that names the row’s version.",
                        headers: ["Location": request.path + "?version=" + row.version])
                }
                let values = Self.texts(of: row, in: list).merging(Self.sentValues(request, of: list, editing: true)) { $1 }
                let searches = try Self.choiceSearches(
                    for: list, lists: lists, in: database, values: values,
                    chooseAction: ListRoute.percentEncodedPath(list.path) + "/" + DatabaseListController.percentEncodedSegment(identifier)
                        + "/-/choose",
                    carried: ["_version": request.query["version"] ?? ""])
                return TableForm(
                    list: list, editing: true, values: values, choices: try Self.choices(for: list, lists: lists, in: database), searches: searches)
            },
            submit: { (sent: [String: String], request: Request) in
                let (list, lists) = try catalog.lastKnownList(named: name)
                try self.requireForForm(.update, on: list.path, request: request)
                let key = try WriteRequest(request: request, options: database.options).key(of: list)
                let version = request.query["version"].map(RowVersion.entityTag)
                let tableWriter = try database.tableWriter(for: list)
                let stored: TableWriter.StoredRow
                do {
                    stored = try Self.formErrors(list: list) {
                        try tableWriter.update(key: key, values: Self.values(sent, of: list, editing: true), expectedVersion: version)
                    }
                } catch let error as RowWriteError where error.status.code == 412 {
                    throw Self.conflict(sent: sent, now: try tableWriter.row(at: key), list: list)
                }
                self.logChange("update", list: list, key: request.parameters["key"], request: request)
                for other in lists.byName.values { self.watchers.listDidChange(at: other.path) }
                return .saved(redirectingTo: Self.rowPath(stored, of: list))
            })
    }

    /// Refuses a form's page or POST to an actor without `action` on the list (an anonymous
    /// browser is sent to sign in). The start-up check of the form, a request from no address, is
    /// not refused.
    private func requireForForm(_ action: Action, on path: String, request: Request) throws {
        guard request.remoteAddress != nil else { return }
        guard let control = accessControl else {
            throw HTTPError(.forbidden, "No one may \(action.rawValue) here: grant it in the configuration’s permissions.")
        }
        try control.require(request, action, on: path)
    }

    /// The values a form sent, by column, read by each column's type: an empty field is NULL where
    /// the column allows it, and on insert the column's default where it has one.
    static func values(_ sent: [String: String], of list: TableList, editing: Bool) throws -> TableWriter.Values {
        var values: TableWriter.Values = []
        for index in TableForm.columns(of: list, editing: editing) {
            let column = list.columns[index]
            let field = TableForm.fieldName(ofColumn: column.name)
            guard let text = sent[field] else { continue }
            if text.isEmpty {
                // A secret's field is never filled in: empty on an edit keeps the value it has.
                if editing, list.isSecret(index) { continue }
                if !editing, column.defaultValue != nil { continue }
                guard !column.notNull else { throw FormValidationError(field, "“\(list.labels[index])” needs a value.") }
                values.append((index, .null))
                continue
            }
            do {
                values.append((index, try TableQuery.parse(text, for: column)))
            } catch {
                // The message quotes the value: a secret's is never written back.
                throw FormValidationError(field, list.isSecret(index) ? "“\(list.labels[index])” does not take this value." : error.message)
            }
        }
        return values
    }

    /// Runs a write, its refusal told on the field it concerns (on the first field when it
    /// concerns several: a CHECK over more than one column).
    static func formErrors<T>(list: TableList, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RowWriteError where error.status.code != 412 {
            let column = error.column ?? TableForm.columns(of: list, editing: false).first.map { list.columns[$0].name } ?? ""
            let field = TableForm.fieldName(ofColumn: column)
            throw FormValidationError(field, error.message)
        }
    }

    /// The refusal of a save made from an old version: each field someone else changed since
    /// shows its value now, beside the person's own (kept in the field).
    /// A 409: nothing was written, and the form, posted again, carries the row's new version.
    static func conflict(sent: [String: String], now: TableWriter.StoredRow?, list: TableList) -> FormValidationError {
        let first = TableForm.fieldName(
            ofColumn: TableForm.columns(of: list, editing: true).first.map { list.columns[$0].name } ?? list.columns.first?.name ?? "")
        guard let now else {
            var error = FormValidationError(first, "Someone else deleted this row meanwhile: nothing was saved.")
            error.status = .conflict
            return error
        }
        let current = texts(of: now, in: list)
        var messages: [String: String] = [:]
        for (field, text) in sent {
            guard let name = TableForm.columnName(ofField: field), let now = current[name], now != text else { continue }
            messages[field] = "Someone else changed this meanwhile: it is now “\(now)”. Nothing was saved; Save again to replace it with your value."
        }
        if messages.isEmpty {
            messages[first] = "Someone else changed this row meanwhile: nothing was saved. Save again to keep your values."
        }
        var error = FormValidationError(messages)
        error.status = .conflict
        error.action = rowPath(now, of: list) + "/-/edit?version=" + now.version
        return error
    }

    /// A row's values as a form shows them: NULL empty.
    static func texts(of row: TableWriter.StoredRow, in list: TableList) -> [String: String] {
        var texts: [String: String] = [:]
        for (index, (column, value)) in zip(list.columns, row.values).enumerated() where !list.isSecret(index) {
            texts[column.name] = text(of: value)
        }
        return texts
    }

    static func text(of value: DatabaseValue) -> String {
        switch value {
        case .null, .blob: ""
        case .integer(let integer): String(integer)
        case .real(let real): String(real)
        case .text(let text): text
        }
    }

    /// The choices of each single-column foreign key whose referenced table is mounted and has at
    /// most ``TableForm/maximumChoices`` rows: its keys, labelled as links to it are.
    static func choices(for list: TableList, lists: DatabaseLists, in database: Database) throws -> [String: [(String, String)]] {
        var choices: [String: [(String, String)]] = [:]
        for foreignKey in list.schema.foreignKeys where foreignKey.columns.count == 1 && foreignKey.referencedColumns.count == 1 {
            guard let target = lists.byName[foreignKey.referencedTable] else { continue }
            let key = quotedIdentifier(foreignKey.referencedColumns[0])
            let label = target.labelColumn.map { quotedIdentifier(target.columns[$0].name) } ?? key
            let sql = "SELECT \(key), \(label) FROM \(target.quotedName) ORDER BY 2 LIMIT \(TableForm.maximumChoices + 1)"
            let labels = try database.read { reader in try reader.labels(sql, []) }
            guard labels.count <= TableForm.maximumChoices else { continue }
            choices[foreignKey.columns[0]] = labels.map { (text(of: $0.key), $0.value) }.sorted { $0.1 < $1.1 }
        }
        return choices
    }

    /// The page of a row written: `{list}/{key}`, or the list when the row is not known.
    static func rowPath(_ row: TableWriter.StoredRow?, of list: TableList) -> String {
        guard let row else { return ListRoute.percentEncodedPath(list.path) }
        let parts: [String] =
            list.schema.keyIsRowID
            ? [row.rowID.map(String.init) ?? ""]
            : list.keyColumns.map { text(of: row.values[$0]) }
        let identifier =
            parts.count == 1
            ? DatabaseListController.percentEncodedSegment(parts[0])
            : parts.map { DatabaseListController.percentEncodedSegment($0.replacing(",", with: "%2C")) }.joined(separator: ",")
        return ListRoute.percentEncodedPath(list.path) + "/" + identifier
    }
}
