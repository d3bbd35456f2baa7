import MicroHTTP
import TableKit

/// One change asked for in editing mode, made against the controller of the list as the person
/// saw it: the row found by identifier and checked against the version the form carried, the
/// form read and checked field by field, then the controller called. What goes wrong is put in
/// the ``EditingMode`` the answer shows (the message in the row, the form open with the values
/// sent) and thrown as ``Refused``.
struct ChangeRequest {
    /// The change was not made: the list is shown again with this status and the mode's notice.
    struct Refused: Error {
        let status: HTTPStatus
    }

    let request: Request
    let items: QueryItems
    let controller: any EditableTableController
    let limits: FormLimits
    private(set) var rowIdentifier: String?
    private var sectionIdentifier: String?
    /// What the form sent, shown again when the change is refused.
    private var formValues: [String: String]?

    init(request: Request, items: QueryItems, controller: any EditableTableController, limits: FormLimits) {
        self.request = request
        self.items = items
        self.controller = controller
        self.limits = limits
    }

    /// Makes `change`; returns the query items the list is shown with afterwards (an Undo).
    mutating func make(_ change: EditingChange, mode: inout EditingMode, keys: SessionKeys, now: Int64, listPath: String) throws
        -> [(String, String)]
    {
        let actor = EditingContext(actor: request.actor)
        switch change {
        case .insert:
            let identifier = items["_section"] ?? ""
            sectionIdentifier = identifier
            guard let section = (0..<controller.numberOfSections).first(where: { controller.identifier(forSection: $0) == identifier }) else {
                mode.notice = EditingMode.Notice(message: "That section is no longer in the list: nothing was added.")
                throw Refused(status: .conflict)
            }
            guard let form = controller.insertForm(inSection: section) else { throw HTTPError.badRequest("This section has no insert row.") }
            let context = try read(form, mode: &mode)
            let end = IndexPath(row: controller.numberOfRows(inSection: section), section: section)
            try commit(mode: &mode) { try controller.commit(.insert, forRowAt: end, context: context) }
        case .save:
            let indexPath = try row(mode: &mode)
            guard let form = controller.editingForm(forRowAt: indexPath) else { throw HTTPError.badRequest("This row has no form to save.") }
            if items["_version"] != RowVersion.of(controller, at: indexPath) {
                // Their values stay in the form; the row as it is now is shown beside them, and the
                // form now carries the new version: saving again replaces it knowingly.
                let sent = try? FormSubmission(request, form: FormTable(form), limits: limits).values
                mode.openForm = EditingMode.OpenForm(row: rowIdentifier, values: sent ?? [:])
                mode.notice = EditingMode.Notice(
                    row: rowIdentifier,
                    message:
                        "Someone else changed this row since you opened it: nothing was saved. It is now as below; Save again to replace it with your values.",
                    current: FormTable(form).fields.filter { $0.kind != .secure }.map { ($0.label, Self.shown($0)) })
                throw Refused(status: .conflict)
            }
            mode.openForm = EditingMode.OpenForm(row: rowIdentifier)
            let context = try read(form, mode: &mode)
            try commit(mode: &mode) { try controller.commitEdit(forRowAt: indexPath, context: context) }
        case .delete:
            let indexPath = try versionedRow(mode: &mode)
            guard controller.canEditRow(at: indexPath), controller.editingStyle(forRowAt: indexPath) == .delete else {
                throw HTTPError.badRequest("This row cannot be deleted.")
            }
            let values = controller.editingForm(forRowAt: indexPath)?.values
            try commit(mode: &mode) { try controller.commit(.delete, forRowAt: indexPath, context: actor) }
            guard let values, let rowIdentifier, controller.canUndoDelete(ofRowWithIdentifier: rowIdentifier) else { return [] }
            let token = UndoToken(
                actor: request.actor ?? "", list: listPath, section: indexPath.section, row: indexPath.row, identifier: rowIdentifier, values: values,
                expiresAt: now + UndoToken.lifetime)
            return token.signed(keys: keys).map { [(EditingMode.undoName, $0)] } ?? []
        case .moveUp, .moveDown:
            let indexPath = try versionedRow(mode: &mode)
            guard controller.canEditRow(at: indexPath), controller.canMoveRow(at: indexPath) else {
                throw HTTPError.badRequest("This row cannot be moved.")
            }
            // At the list's edge, or held in place by the controller: there is nothing to do.
            guard let destination = controller.indexPath(movingRowAt: indexPath, by: change == .moveUp ? -1 : 1) else { return [] }
            try commit(mode: &mode) { try controller.moveRow(at: indexPath, to: destination, context: actor) }
        case .move:
            let indexPath = try versionedRow(mode: &mode)
            guard controller.canEditRow(at: indexPath), controller.canMoveRow(at: indexPath) else {
                throw HTTPError.badRequest("This row cannot be moved.")
            }
            guard let destination = try destination(movingRowAt: indexPath, mode: &mode) else { return [] }
            try commit(mode: &mode) { try controller.moveRow(at: indexPath, to: destination, context: actor) }
        case .action(let name):
            let indexPath = try versionedRow(mode: &mode)
            guard controller.canEditRow(at: indexPath),
                let action = controller.contextualActions(forRowAt: indexPath).first(where: { $0.identifier == name })
            else { throw HTTPError.badRequest("This row has no action “\(name.prefix(80))”.") }
            try commit(mode: &mode) { try action.handler(actor) }
        case .undo:
            try undo(mode: &mode, keys: keys, now: now, listPath: listPath)
        }
        return []
    }

    /// Puts a deleted row back where it was, from its token: once, by the account that deleted it,
    /// within ``UndoToken/lifetime``.
    private mutating func undo(mode: inout EditingMode, keys: SessionKeys, now: Int64, listPath: String) throws {
        guard let text = items["_token"], let token = UndoToken.verified(text, keys: keys, now: now), token.actor == (request.actor ?? ""),
            token.list == listPath
        else {
            mode.notice = EditingMode.Notice(
                message: "This deletion can no longer be undone: Undo lasts a minute, for the account that deleted the row.")
            throw Refused(status: .conflict)
        }
        rowIdentifier = token.identifier
        guard controller.indexPath(forRowWithIdentifier: token.identifier) == nil else {
            mode.notice = EditingMode.Notice(row: token.identifier, message: "This row is back already: Undo was done once.")
            throw Refused(status: .conflict)
        }
        guard controller.numberOfSections > 0 else { throw HTTPError.badRequest("The list has no section to put the row back in.") }
        let section = min(max(token.section, 0), controller.numberOfSections - 1)
        let place = IndexPath(row: min(max(token.row, 0), controller.numberOfRows(inSection: section)), section: section)
        // The row's fields as its section's insert form describes them, so that a switch or a
        // number decodes as it did; text fields where the section has no insert row.
        var fields: [String: FormField] = [:]
        for name in token.values.keys { fields[name] = .text(name, label: name) }
        for field in controller.insertForm(inSection: section).map({ FormTable($0).fields }) ?? [] { fields[field.name] = field }
        let values = token.values
        let context = EditingContext(
            actor: request.actor, values: values, restoring: token.identifier, makeDecoder: { FormValueDecoder(values: values, fields: fields) })
        try commit(mode: &mode) { try controller.commit(.insert, forRowAt: place, context: context) }
    }

    /// Where a row dropped beside another goes (`_before=<row>` or `_after=<row>`), as UIKit's
    /// destination (its place once it has left its own), after
    /// ``EditableTableController/targetIndexPathForMove(from:to:)``; nil when it stays. 409 when
    /// the row it was dropped beside has gone.
    private func destination(movingRowAt source: IndexPath, mode: inout EditingMode) throws -> IndexPath? {
        let after = items["_after"]
        guard let anchor = after ?? items["_before"] else { throw HTTPError.badRequest("Say where the row goes (_before or _after a row).") }
        guard let beside = controller.indexPath(forRowWithIdentifier: anchor) else {
            mode.notice = EditingMode.Notice(
                row: rowIdentifier, message: "The row this one was dropped beside is no longer in the list: nothing was moved.")
            throw Refused(status: .conflict)
        }
        var row = beside.row + (after == nil ? 0 : 1)
        // Leaving its place moves the rows after it in its section up by one.
        if beside.section == source.section, source.row < row { row -= 1 }
        let proposed = controller.targetIndexPathForMove(from: source, to: IndexPath(row: row, section: beside.section))
        return proposed == source ? nil : proposed
    }

    /// The row `_row` names; 409 when it is gone.
    private mutating func row(mode: inout EditingMode) throws -> IndexPath {
        guard let identifier = items["_row"] else { throw HTTPError.badRequest("Say which row to change (_row).") }
        rowIdentifier = identifier
        guard let indexPath = controller.indexPath(forRowWithIdentifier: identifier) else {
            mode.notice = EditingMode.Notice(message: "That row is no longer in the list: someone deleted it. Nothing was changed.")
            throw Refused(status: .conflict)
        }
        return indexPath
    }

    /// The row `_row` names, still at the version `_version` says the page showed; 409 otherwise.
    private mutating func versionedRow(mode: inout EditingMode) throws -> IndexPath {
        let indexPath = try row(mode: &mode)
        guard let version = items["_version"] else { throw HTTPError.badRequest("A change carries the row's version (_version).") }
        guard version == RowVersion.of(controller, at: indexPath) else {
            mode.notice = EditingMode.Notice(
                row: rowIdentifier, message: "Someone else changed this row since you saw it: nothing was done. It is shown as it is now.")
            throw Refused(status: .conflict)
        }
        return indexPath
    }

    /// The form's values, each field checked; 422 with each message on its field otherwise.
    private mutating func read(_ form: any FormController, mode: inout EditingMode) throws -> EditingContext {
        let table = FormTable(form)
        let submission = try FormSubmission(request, form: table, limits: limits)
        formValues = submission.values
        var fields: [String: FormField] = [:]
        var errors: [String: String] = [:]
        for field in table.fields {
            fields[field.name] = field
            if let message = field.validationMessage(for: submission.values[field.name]) { errors[field.name] = message }
        }
        if !errors.isEmpty {
            place(FormPage.summaryTitle(count: errors.count), errors: errors, in: &mode)
            throw Refused(status: .unprocessableContent)
        }
        let values = submission.values
        return EditingContext(actor: request.actor, values: values, makeDecoder: { FormValueDecoder(values: values, fields: fields) })
    }

    /// Runs the controller's change; a value its form cannot decode is a 422 on the field.
    private func commit(mode: inout EditingMode, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DecodingError {
            let name = Self.fieldName(of: error)
            place(
                name == nil ? "The form's values do not fit this row." : "Check this field.",
                errors: name.map { [$0: "This value is not valid."] } ?? [:], in: &mode)
            throw Refused(status: .unprocessableContent)
        }
    }

    /// Shows `message` in the row or insert row changed, the form open again with what was sent.
    func place(_ message: String, field: String?, in mode: inout EditingMode) {
        place(message, errors: field.map { [$0: message] } ?? [:], in: &mode)
    }

    private func place(_ message: String, errors: [String: String], in mode: inout EditingMode) {
        if let formValues {
            mode.openForm = EditingMode.OpenForm(
                row: sectionIdentifier == nil ? rowIdentifier : nil, section: sectionIdentifier, values: formValues, errors: errors)
        }
        mode.notice = EditingMode.Notice(row: sectionIdentifier == nil ? rowIdentifier : nil, section: sectionIdentifier, message: message)
    }

    private static func fieldName(of error: DecodingError) -> String? {
        switch error {
        case .keyNotFound(let key, let context): (context.codingPath.first ?? key).stringValue
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context.codingPath.first?.stringValue
        @unknown default: nil
        }
    }

    /// A field's value as a person reads it: a switch's On or Off, a choice's title.
    static func shown(_ field: FormField) -> String {
        switch field.kind {
        case .toggle: field.value == "1" ? "On" : "Off"
        case .picker(let options): options.first { $0.value == field.value }?.title ?? field.value
        default: field.value
        }
    }
}
