import ByteWriters
import MicroHTTP
import TableKit

/// A list page in editing mode (`?editing=1`), as `setEditing(true, animated:)` puts a table view
/// in it: what the actor may do, which row or insert row shows its form, and what the last
/// change left to say (a message in a row, a conflict, an Undo).
///
/// The query names it reads: `editing=1`, `_edit=<row>` (that row's form open in place of its
/// cell), `_insert=<section>` (that section's insert row open), `_undo=<token>` (the Undo offered
/// after a delete). The underscored ones are not filters and not part of a live window's key;
/// `editing` is reserved (``ListContext/reservedNames``) and is.
struct EditingMode {
    /// The changes the actor may make on this list.
    struct Allowed: Equatable {
        var insert = false
        var update = false
        var delete = false
        var any: Bool { insert || update || delete }
    }

    /// A form open in the page: a row's (`row`) or a section's insert row (`section`), with the
    /// values to show, and each field's message.
    struct OpenForm {
        var row: String?
        var section: String?
        var values: [String: String]?
        var errors: [String: String] = [:]
    }

    /// A message shown in one row, or in one section's insert row: why a change was refused.
    struct Notice {
        var row: String?
        var section: String?
        var message: String
        /// The row as it is now, by field label, when it changed since the person saw it.
        var current: [(label: String, value: String)] = []
    }

    var allowed: Allowed
    /// Where every control posts: `{list}/-/editing`.
    let actionPath: String
    /// The list's own query without the names of editing mode: what each change goes back to.
    let listQuery: QueryItems
    var openForm: OpenForm?
    var notice: Notice?
    /// The Undo offered after a delete, when its token verified.
    var undo: (token: String, values: UndoToken)?

    static let editingName = "editing"
    static let editName = "_edit"
    static let insertName = "_insert"
    static let undoName = "_undo"

    /// Whether `query` asks for editing mode.
    static func isRequested(by query: QueryItems) -> Bool {
        guard let value = query[editingName] else { return false }
        return value == "1" || value == "true" || value == "on"
    }

    /// `query` without the names editing mode adds (and without `fragment`): the list as shown.
    static func listQuery(of query: QueryItems) -> QueryItems {
        var kept = query
        kept.removeAll { [editingName, editName, insertName, undoName, "fragment"].contains($0.name) }
        return kept
    }

    /// The list's URL in editing mode with `extra` items, for links and redirects: the path and
    /// the list's query, never another host's URL.
    func href(listHref: String, _ extra: [(String, String)] = []) -> String {
        var query = listQuery
        query.append(name: Self.editingName, value: "1")
        for (name, value) in extra { query.append(name: name, value: value) }
        return listHref + "?" + query.percentEncoded
    }
}

extension EditingMode {
    /// What `request`'s actor may change on `route`'s list.
    static func allowed(_ request: Request, route: ListRoute, access: EditingAccess?) -> Allowed {
        guard let access else { return Allowed() }
        return Allowed(
            insert: access.permits(request, .insert, on: route.path), update: access.permits(request, .update, on: route.path),
            delete: access.permits(request, .delete, on: route.path))
    }

    /// The mode a GET of the list asks for (`editing=1`), or nil when it does not, or the actor may
    /// change nothing (the list is shown as it is).
    static func requested(by request: Request, route: ListRoute, access: EditingAccess?) -> EditingMode? {
        guard isRequested(by: request.query) else { return nil }
        let allowed = allowed(request, route: route, access: access)
        guard allowed.any, let access else { return nil }
        var mode = EditingMode(allowed: allowed, actionPath: route.href + EditingResponder.pathSuffix, listQuery: listQuery(of: request.query))
        if let row = request.query[editName] { mode.openForm = OpenForm(row: row) }
        if let section = request.query[insertName] { mode.openForm = OpenForm(section: section) }
        if let text = request.query[undoName], let token = UndoToken.verified(text, keys: access.keys, now: access.now()),
            token.actor == (request.actor ?? ""), token.list == route.path
        {
            mode.undo = (text, token)
        }
        return mode
    }

    /// The mode a watched window of the list is rendered in, when its query asks for editing
    /// mode: every watcher's, so no form open, no notice, no Undo, and a list query without the
    /// names only a stream reads (`_last-event-id`).
    static func watched(by request: Request, route: ListRoute, access: EditingAccess?) -> EditingMode? {
        guard isRequested(by: request.query), access != nil else { return nil }
        let allowed = allowed(request, route: route, access: access)
        guard allowed.any else { return nil }
        var query = listQuery(of: request.query)
        query.removeAll { $0.name.hasPrefix("_") }
        return EditingMode(allowed: allowed, actionPath: route.href + EditingResponder.pathSuffix, listQuery: query)
    }

    /// Above the rows: "Done" (the list as it is), what went wrong with no row to show it in, and
    /// the Undo a delete leaves.
    func writeToolbar(listHref: String, into html: inout HTMLWriter) {
        html.raw("<div class=\"editing-toolbar\"><a class=\"button editing-done\"")
        html.urlAttribute("href", listQuery.isEmpty ? listHref : listHref + "?" + listQuery.percentEncoded)
        html.raw(">Done</a></div>\n")
        if let notice, notice.row == nil, notice.section == nil {
            html.raw("<div class=\"alert alert-error editing-notice\" role=\"alert\">")
            html.text(notice.message)
            html.raw("</div>\n")
        }
        if let undo {
            html.raw("<form class=\"editing-undo\" role=\"status\" method=\"post\"")
            html.urlAttribute("action", actionPath)
            html.raw("><span>Row deleted.</span> <input type=\"hidden\" name=\"_do\" value=\"undo\"><input type=\"hidden\" name=\"_token\"")
            html.attribute("value", undo.token)
            html.raw("><input type=\"hidden\" name=\"_return\"")
            html.attribute("value", listQuery.percentEncoded)
            html.raw("><button class=\"button\" type=\"submit\">Undo</button></form>\n")
        }
    }

    /// On the list as it is, for an actor who may change it: the button into editing mode.
    static func writeEditButton(listHref: String, query: QueryItems, into html: inout HTMLWriter) {
        var kept = listQuery(of: query)
        kept.append(name: editingName, value: "1")
        html.raw("<div class=\"editing-toolbar\"><a class=\"button editing-start\"")
        html.urlAttribute("href", listHref + "?" + kept.percentEncoded)
        html.raw(">Edit</a></div>\n")
    }
}
