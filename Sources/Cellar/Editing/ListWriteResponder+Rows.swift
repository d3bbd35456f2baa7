import MicroHTTP
import TableKit

/// An insert's or upsert's rows (`{"row": …}` or `{"rows": […]}`) on an app's list: each checked
/// against its form, its section and its row's version before any is committed, then committed in
/// order, each against the list as it is then (see ``ListWriteResponder``).
extension ListWriteResponder {
    /// One row of an insert or upsert: added at the end of a section, or the row its `"id"` names changed.
    private enum Step {
        case insert(fields: [String: String])
        case update(identifier: String, fields: [String: String])
    }

    /// An insert's or upsert's rows: each checked, then each committed in order (see the type's notes).
    func writeRows(_ request: Request, controller: any EditableTableController) throws -> Response {
        let body = try ListWriteBody(request.body, kind: kind, maxRows: app.maxRowsPerWrite)
        let steps = body.rows.map { row -> Step in
            var fields = row
            if kind == .upsert, let identifier = fields.removeValue(forKey: "id"), !identifier.isEmpty {
                return .update(identifier: identifier, fields: fields)
            }
            return .insert(fields: fields)
        }
        let updates = steps.contains { if case .update = $0 { true } else { false } }
        let inserts = steps.contains { if case .insert = $0 { true } else { false } }
        let section = inserts || body.section != nil ? try insertSection(body.section, of: controller) : 0
        let ifMatch = try conditions(request, required: updates)
        // Every row checked against the list as it is now, before any change is made.
        for (index, step) in steps.enumerated() {
            do {
                _ = try prepare(step, section: section, ifMatch: ifMatch, in: controller, actor: request.actor)
            } catch let error as HTTPError {
                throw Self.naming(error, row: index, of: body)
            }
        }
        var current = controller
        var written: [String] = []
        var committed = 0
        for (index, step) in steps.enumerated() {
            do {
                let (place, context) = try prepare(step, section: section, ifMatch: ifMatch, in: current, actor: request.actor)
                switch step {
                case .insert:
                    let before = Set(Self.identifiers(of: current))
                    try Self.commit { try current.commit(.insert, forRowAt: place, context: context) }
                    committed += 1
                    current = try makeController(request)
                    if let added = Self.identifiers(of: current).first(where: { !before.contains($0) }) { written.append(added) }
                case .update:
                    let identifier = current.identifier(forRowAt: place)
                    try Self.commit { try current.commitEdit(forRowAt: place, context: context) }
                    committed += 1
                    written.append(identifier)
                    current = try makeController(request)
                }
            } catch {
                let refusal = Self.naming(refusal(error, request), row: index, of: body)
                guard committed > 0 else { throw refusal }
                record(request, action: kind, rows: written)
                return try Self.partial(refusal, committed: committed, rows: written, of: current)
            }
        }
        record(request, action: kind, rows: written)
        return try Self.answer(status: kind == .insert ? .created : .ok, rows: body.returnsRows ? written : nil, of: current)
    }

    /// Where `step` is made and the context it is made with, checked against `controller`: an
    /// insert at the end of `section` with its insert form's values; an update of the row its id
    /// names, at a version `ifMatch` allows, with its editing form's values and those sent.
    private func prepare(
        _ step: Step, section: Int, ifMatch: [String]?, in controller: any EditableTableController, actor: String?
    ) throws -> (IndexPath, EditingContext) {
        switch step {
        case .insert(let fields):
            guard section < controller.numberOfSections, let form = controller.insertForm(inSection: section) else {
                throw HTTPError.badRequest("\(route.title) has no insert row: rows cannot be added to it.")
            }
            if fields["id"] != nil, !FormTable(form).fields.contains(where: { $0.name == "id" }) {
                throw HTTPError.badRequest(
                    "This list gives a new row its “id”: send the row without one, or use /-/upsert to change the row it names.")
            }
            let context = try Self.context(form, sent: fields, actor: actor)
            return (IndexPath(row: controller.numberOfRows(inSection: section), section: section), context)
        case .update(let identifier, let fields):
            guard let indexPath = controller.indexPath(forRowWithIdentifier: identifier) else {
                throw HTTPError.notFound(
                    "\(route.title) has no row “\(identifier.prefix(80))”: an upsert changes the row its “id” names, and adds a row sent without “id” (the list gives it one)."
                )
            }
            try checkVersion(ifMatch, of: controller, at: indexPath)
            guard let form = controller.editingForm(forRowAt: indexPath) else { throw HTTPError.badRequest("This row has no fields to update.") }
            return (indexPath, try Self.context(form, sent: fields, actor: actor))
        }
    }

    /// The section `choice` names (its index, identifier or header's title), or the first with an
    /// insert row; a 400 naming the sections that take rows when it names none of them.
    private func insertSection(_ choice: ListWriteBody.Section?, of controller: any EditableTableController) throws -> Int {
        let open = (0..<controller.numberOfSections).filter { controller.insertForm(inSection: $0) != nil }
        guard let first = open.first else { throw HTTPError.badRequest("\(route.title) has no insert row: rows cannot be added to it.") }
        guard let choice else { return first }
        let found: Int? =
            switch choice {
            case .index(let index): open.contains(index) ? index : nil
            case .name(let name):
                open.first { controller.identifier(forSection: $0) == name } ?? open.first { controller.titleForHeader(inSection: $0) == name }
            }
        if let found { return found }
        let choices = open.map { section in
            var named = "\(section) (“\(controller.identifier(forSection: section))”"
            if let title = controller.titleForHeader(inSection: section) { named += ", “\(title)”" }
            return named + ")"
        }
        let sent: String =
            switch choice {
            case .index(let index): String(index)
            case .name(let name): "“\(name.prefix(80))”"
            }
        throw HTTPError.badRequest("\(route.title) has no section \(sent) that takes rows: its sections are \(choices.joined(separator: ", ")).")
    }
}
