import ByteWriters
import TableKit

/// The markup of editing mode: a row's controls (one `<form>` of buttons — delete, Move up, Move
/// down, its actions — and an "Edit" link), a row's form in place of its cell, and a section's
/// insert row. Every button posts to the list's `/-/editing` with the row, its version and the
/// list's query; only what the actor may do is written.
struct EditingControls {
    let controller: any EditableTableController
    let mode: EditingMode
    let listHref: String
    let registry: ReuseRegistry

    func writeControls(forRowAt indexPath: IndexPath, identifier: String, into html: inout HTMLWriter) {
        let allowed = mode.allowed
        let canDelete = allowed.delete && controller.editingStyle(forRowAt: indexPath) == .delete
        let canMove = allowed.update && controller.canMoveRow(at: indexPath)
        let up = canMove ? controller.indexPath(movingRowAt: indexPath, by: -1) : nil
        let down = canMove ? controller.indexPath(movingRowAt: indexPath, by: 1) : nil
        let actions = allowed.update ? controller.contextualActions(forRowAt: indexPath) : []
        let canEdit = allowed.update && controller.editingForm(forRowAt: indexPath) != nil
        if let notice = mode.notice, notice.row == identifier { writeNotice(notice, into: &html) }
        guard canDelete || up != nil || down != nil || !actions.isEmpty || canEdit else { return }
        html.raw("<div class=\"editing-controls\">")
        if canDelete || up != nil || down != nil || !actions.isEmpty {
            // The buttons in a disclosure, open: a row of buttons on a wide screen (its summary
            // hidden), a menu at phone width, which the script closes (without it, a menu open).
            html.raw("<details class=\"editing-menu\" open><summary class=\"button\">Actions</summary>")
            html.raw("<form class=\"editing-buttons\" method=\"post\"")
            html.urlAttribute("action", mode.actionPath)
            html.raw(">")
            writeHidden(row: identifier, version: RowVersion.of(controller, at: indexPath), into: &html)
            for action in actions {
                html.raw("<button type=\"submit\" name=\"_do\" class=\"button editing-action editing-")
                html.text(action.style.rawValue)
                html.raw("\"")
                html.attribute("value", "action:" + action.identifier)
                html.raw(">")
                html.text(action.title)
                html.raw("</button> ")
            }
            if up != nil { html.raw("<button type=\"submit\" name=\"_do\" value=\"up\" class=\"button editing-move\">Move up</button> ") }
            if down != nil { html.raw("<button type=\"submit\" name=\"_do\" value=\"down\" class=\"button editing-move\">Move down</button> ") }
            if canDelete {
                html.raw("<button type=\"submit\" name=\"_do\" value=\"delete\" class=\"button editing-delete\">Delete</button>")
            }
            html.raw("</form></details>")
        }
        if canEdit {
            if canDelete || up != nil || down != nil || !actions.isEmpty { html.raw(" ") }
            html.raw("<a class=\"button editing-edit\"")
            html.urlAttribute("href", mode.href(listHref: listHref, [(EditingMode.editName, identifier)]) + "#row-" + Self.fragment(identifier))
            html.raw(">Edit</a>")
        }
        // The reorder handle, for the script's drag (hidden without it).
        if canMove && (up != nil || down != nil) { html.raw("<span class=\"editing-drag\" aria-hidden=\"true\" title=\"Drag to move\">≡</span>") }
        html.raw("</div>")
    }

    /// The row's form where its cell was: `<li class="cell editing-open" id="row-…">` (one
    /// `<td colspan>` of a `<tr>` in the columns layout) around a `<form>` with Save and Cancel.
    mutating func writeOpenRow(
        _ identifier: String, at indexPath: IndexPath, form: any FormController, columnCount: Int?, into html: inout HTMLWriter
    ) throws {
        html.raw(columnCount == nil ? "<li class=\"cell editing-open\" id=\"row-" : "<tr class=\"cell editing-open\" id=\"row-")
        html.pathSegment(identifier)
        html.raw("\">")
        if let columnCount { html.unsafeRaw("<td colspan=\"\(columnCount + 1)\">") }
        let notice = mode.notice.flatMap { $0.row == identifier ? $0 : nil }
        try writeForm(
            form, title: "Save",
            hidden: { html in
                html.raw("<input type=\"hidden\" name=\"_do\" value=\"save\">")
                writeHidden(row: identifier, version: RowVersion.of(controller, at: indexPath), into: &html)
            }, notice: notice, into: &html)
        html.raw(columnCount == nil ? "</li>\n" : "</td></tr>\n")
    }

    /// The insert row at the end of a section: a link that opens its form, or the form when open.
    mutating func writeInsertRow(_ section: TableWalk.Section, form: any FormController, columnCount: Int?, into html: inout HTMLWriter) throws {
        html.raw(columnCount == nil ? "<li class=\"editing-insert\" id=\"insert-" : "<tr class=\"editing-insert\" id=\"insert-")
        html.pathSegment(section.identifier)
        html.raw("\">")
        if let columnCount { html.unsafeRaw("<td colspan=\"\(columnCount + 1)\">") }
        if mode.openForm?.section == section.identifier {
            let notice = mode.notice.flatMap { $0.section == section.identifier ? $0 : nil }
            try writeForm(
                form, title: "Add",
                hidden: { html in
                    html.raw("<input type=\"hidden\" name=\"_do\" value=\"insert\">")
                    html.raw("<input type=\"hidden\" name=\"_section\"")
                    html.attribute("value", section.identifier)
                    html.raw(">")
                    writeListQuery(into: &html)
                }, notice: notice, into: &html)
        } else {
            html.raw("<a class=\"button editing-add\"")
            html.urlAttribute(
                "href", mode.href(listHref: listHref, [(EditingMode.insertName, section.identifier)]) + "#insert-" + Self.fragment(section.identifier)
            )
            html.raw(">Add a row")
            if let header = section.header {
                html.raw("<span class=\"visually-hidden\"> to ")
                html.text(header)
                html.raw("</span>")
            }
            html.raw("</a>")
        }
        html.raw(columnCount == nil ? "</li>\n" : "</td></tr>\n")
    }

    /// `<form method="post">`: the notice, the form's field cells (the values sent and their
    /// messages, after a refusal), the submit button and Cancel.
    private func writeForm(
        _ controller: any FormController, title: String, hidden: (inout HTMLWriter) -> Void, notice: EditingMode.Notice?,
        into html: inout HTMLWriter
    ) throws {
        html.raw("<form class=\"form editing-form\" method=\"post\" novalidate")
        html.urlAttribute("action", mode.actionPath)
        html.raw(">")
        hidden(&html)
        if let notice { writeNotice(notice, into: &html) }
        var form = FormTable(controller)
        if let open = mode.openForm, let values = open.values { form = form.filled(values: values, errors: open.errors) }
        var renderer = TableRenderer(controller: InlineForm(form: form), tableView: TableView(registry: registry), style: .cells)
        _ = try renderer.render(into: &html)
        html.raw("<div class=\"form-actions\"><button class=\"button\" type=\"submit\">")
        html.text(title)
        html.raw("</button> <a class=\"button button-secondary editing-cancel\"")
        html.urlAttribute("href", mode.href(listHref: listHref))
        html.raw(">Cancel</a></div></form>")
    }

    /// Why the last change to this row was refused, and the row as it is now when it changed.
    private func writeNotice(_ notice: EditingMode.Notice, into html: inout HTMLWriter) {
        html.raw("<div class=\"editing-notice\" role=\"alert\"><p>")
        html.text(notice.message)
        html.raw("</p>")
        if !notice.current.isEmpty {
            html.raw("<dl class=\"editing-current\">")
            for (label, value) in notice.current {
                html.raw("<dt>")
                html.text(label)
                html.raw("</dt><dd>")
                html.text(value)
                html.raw("</dd>")
            }
            html.raw("</dl>")
        }
        html.raw("</div>")
    }

    private func writeHidden(row: String, version: String, into html: inout HTMLWriter) {
        html.raw("<input type=\"hidden\" name=\"_row\"")
        html.attribute("value", row)
        html.raw("><input type=\"hidden\" name=\"_version\"")
        html.attribute("value", version)
        html.raw(">")
        writeListQuery(into: &html)
    }

    /// The list's query, which the change's answer goes back to.
    private func writeListQuery(into html: inout HTMLWriter) {
        html.raw("<input type=\"hidden\" name=\"_return\"")
        html.attribute("value", mode.listQuery.percentEncoded)
        html.raw(">")
    }

    /// An identifier as the row's id writes it (`row-…`), for a link to it.
    static func fragment(_ identifier: String) -> String {
        var html = HTMLWriter()
        html.pathSegment(identifier)
        return html.string
    }
}

/// A form inside a list: its sections and rows named `form-…`, so that their ids (`section-form-0-rows`,
/// `row-form-wine`) are never the list's own.
private struct InlineForm: FormController {
    let form: FormTable
    var sections: [FormSection] { form.sections }
    var submitTitle: String { form.submitTitle }
    func identifier(forSection section: Int) -> String { "form-\(section)" }
    func identifier(forRowAt indexPath: IndexPath) -> String { "form-" + field(at: indexPath).name }
}
