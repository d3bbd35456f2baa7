/// A ``WindowPatch`` as JSON, for clients that watch a list's JSON:
///
/// ```json
/// {"sequence": 12, "operations": [
///   {"op": "remove", "id": "7"},
///   {"op": "insert", "section": 0, "sectionId": "0", "before": "9", "row": {"id": "8", "cell": "…", "href": "…", "item": {…}}},
///   {"op": "replace", "row": {"id": "3", …}},
///   {"op": "section", "index": 0, "id": "0", "header": "…", "footer": "…"},
///   {"op": "page", "meta": {"offset": 0, "limit": 50, "total": 1001, …}, "links": {"self": "…", …, "next": "…"}},
///   {"op": "members", "facets": {…}}]}
/// ```
///
/// `members` comes when the list's own members beside its rows changed (a database list's
/// `facets`: a count moved), with each of them as the list's JSON has it; at most every 2 s.
///
/// `page` comes when the window's `meta` or `links` (as the list's JSON has them) changed: rows
/// entered or left the list, or the window reaches its end or no longer does.
///
/// Operations apply in order. `before` names the row the new one goes before, or is null for the
/// end of its section in the window; a moved row is removed and inserted again. A section is
/// named by its number in the list (`section`, `index`) and its identifier (`sectionId`, `id`,
/// as in the list's JSON `sections`), which is what says which section it is when pages number
/// their sections each from 0. Rows have the
/// shape of the list's JSON `rows`. `{"op": "refresh"}` alone means: fetch the window again.
enum JSONPatchBatch {
    /// The batch as one line of JSON: the data of one event.
    static func data(_ patch: WindowPatch, version: WindowVersion, sequence: UInt64) -> String {
        var json = JSONWriter()
        json.raw("{")
        json.key("sequence")
        json.number(sequence)
        json.member("operations")
        json.raw("[")
        var first = true
        for operation in patch.operations {
            if !first { json.raw(",") }
            first = false
            json.raw("{")
            json.key("op")
            switch operation {
            case .refresh:
                json.string("refresh")
            case .remove(let id):
                json.string("remove")
                json.member("id", id)
            case .insert(let id, let section, let before, _):
                json.string("insert")
                json.member("section", section.index)
                json.member("sectionId", section.identifier)
                json.member("before", before)
                writeRow(version.rows[id], into: &json)
            case .replace(let id):
                json.string("replace")
                writeRow(version.rows[id], into: &json)
            case .pager:
                json.string("page")
                json.raw(",")
                version.pager.withUnsafeBytes { json.append($0) }
            case .liveHeader:
                json.string("members")
                version.liveHeader.withUnsafeBytes { json.append($0) }
            case .titles(let new, _):
                json.string("section")
                json.raw(",")
                json.sectionMembers(index: new.index, identifier: new.identifier, header: new.header, footer: new.footer)
            }
            json.raw("}")
        }
        json.raw("]}")
        return String(decoding: json.takeBytes(), as: UTF8.self)
    }

    /// A batch that has the client fetch the window again.
    static func refresh(sequence: UInt64) -> String {
        data(.refresh, version: WindowVersion(), sequence: sequence)
    }

    private static func writeRow(_ row: [UInt8]?, into json: inout JSONWriter) {
        json.member("row")
        guard let row, !row.isEmpty else { return json.null() }
        row.withUnsafeBytes { json.append($0) }
    }
}
