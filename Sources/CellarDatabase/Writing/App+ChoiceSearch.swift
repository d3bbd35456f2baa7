import ByteWriters
import Cellar
import MicroHTTP
import TableKit

/// A foreign key into a table of more than ``TableForm/maximumChoices`` rows is found by searching
/// rather than picked from a list (``ChoiceSearch``): the schema's forms show a field that takes the
/// key, with suggestions a script fetches from `{list}/-/choose.json?_choose=COLUMN&q=…` and a
/// "Choose…" button that, without a script, sends the form's values by GET to `{list}/-/choose`
/// (a new row) or `{list}/{key}/-/choose` (an edit): a page of matches with a search box, each
/// match a link back to the form with the key set and the other values kept.
extension App {
    /// The most matches a search answers: a person narrows the search rather than reads on.
    static let maximumMatches = 50
    /// The longest search accepted.
    static let maximumSearchLength = 200

    /// A foreign key searched for: the referring column, and the referenced table and column.
    struct SearchedKey {
        let column: String
        let target: TableList
        let key: String
    }

    /// Mounts a writable table's foreign-key searches (its JSON and its no-script pages).
    func mountChoiceSearch(_ list: TableList, catalog: DatabaseCatalog) {
        let name = list.schema.name
        let database = catalog.database
        route(.get, list.path + "/-/choose.json") { request in
            let (list, lists) = try catalog.lastKnownList(named: name)
            // Whoever may fill either form may search.
            if self.accessControl?.permits(request, .insert, on: list.path) != true { try self.requireChoosing(.update, on: list, request: request) }
            let searched = try Self.searchedKey(request, of: list, lists: lists, in: database)
            let matches = try Self.matches(of: try Self.searchTerm(request), for: searched, in: database)
            var json = JSONWriter(capacity: 256 + matches.count * 64)
            json.raw("{\"choices\":[")
            for (index, match) in matches.enumerated() {
                json.raw(index == 0 ? "{\"value\":" : ",{\"value\":")
                json.string(match.value)
                json.raw(",\"label\":")
                json.string(match.label)
                json.raw("}")
            }
            json.raw("]}")
            return .json(json.takeBytes())
        }
        page(list.path + "/-/choose", title: "Choose a row") { request, page in
            let (list, lists) = try catalog.lastKnownList(named: name)
            try self.requireChoosing(.insert, on: list, request: request)
            let searched = try Self.searchedKey(request, of: list, lists: lists, in: database)
            try Self.writeChooser(
                searched, request: request, list: list, editing: false, returnPath: ListRoute.percentEncodedPath(list.path) + "/-/new",
                database: database, into: &page)
            return .ok
        }
        page(list.path + "/:key/-/choose", title: "Choose a row") { request, page in
            let (list, lists) = try catalog.lastKnownList(named: name)
            try self.requireChoosing(.update, on: list, request: request)
            let searched = try Self.searchedKey(request, of: list, lists: lists, in: database)
            let key = DatabaseListController.percentEncodedSegment(request.parameters["key"] ?? "")
            try Self.writeChooser(
                searched, request: request, list: list, editing: true,
                returnPath: ListRoute.percentEncodedPath(list.path) + "/" + key + "/-/edit", database: database, into: &page)
            return .ok
        }
    }

    private func requireChoosing(_ action: Action, on list: TableList, request: Request) throws {
        guard let control = accessControl else {
            throw HTTPError(.forbidden, "No one may \(action.rawValue) here: grant it in the configuration’s permissions.")
        }
        try control.require(request, action, on: list.path)
    }

    /// The foreign keys of `list` into tables too long to list in a form, by referring column.
    static func searchedKeys(of list: TableList, lists: DatabaseLists, in database: Database) throws -> [String: SearchedKey] {
        var searched: [String: SearchedKey] = [:]
        for foreignKey in list.schema.foreignKeys where foreignKey.columns.count == 1 && foreignKey.referencedColumns.count == 1 {
            guard let target = lists.byName[foreignKey.referencedTable] else { continue }
            let sql = "SELECT count(*) FROM (SELECT 1 FROM \(target.quotedName) LIMIT \(TableForm.maximumChoices + 1)) AS counted"
            let count = try database.read { reader in try reader.integer(sql, []) }
            if count > TableForm.maximumChoices {
                searched[foreignKey.columns[0]] = SearchedKey(column: foreignKey.columns[0], target: target, key: foreignKey.referencedColumns[0])
            }
        }
        return searched
    }

    /// The search field of each such key for a form showing `values`: where its script fetches
    /// matches, where "Choose…" goes (`chooseAction`, with `carried` besides the fields), and, when
    /// `naming`, what the current value is called (one lookup a key: a list's rows in editing mode,
    /// whose cells name it already, leave it out).
    static func choiceSearches(
        for list: TableList, lists: DatabaseLists, in database: Database, values: [String: String], chooseAction: String,
        carried: [String: String] = [:], searched given: [String: SearchedKey]? = nil, naming: Bool = true
    ) throws -> [String: ChoiceSearch] {
        // "Choose…" would put every field of the form in an address, a secret's too: none then.
        let hasSecret = TableForm.columns(of: list, editing: false).contains { list.isSecret($0) }
        var searches: [String: ChoiceSearch] = [:]
        for (column, searched) in try given ?? searchedKeys(of: list, lists: lists, in: database) {
            let source =
                ListRoute.percentEncodedPath(list.path) + "/-/choose.json?_choose="
                + PercentEncoding.encoded(TableForm.fieldName(ofColumn: column), keeping: PercentEncoding.isUnreserved)
            let title = try values[column].flatMap { value in !naming || value.isEmpty ? nil : try label(of: value, for: searched, in: database) }
            searches[column] = ChoiceSearch(
                source: source, chooseAction: hasSecret ? nil : chooseAction, carried: carried, selectedTitle: title)
        }
        return searches
    }

    /// The label of the referenced row whose key is `text`, or nil when there is none.
    private static func label(of text: String, for searched: SearchedKey, in database: Database) throws -> String? {
        guard let column = searched.target.schema.column(named: searched.key), let value = try? TableQuery.parse(text, for: column) else {
            return nil
        }
        let sql =
            "SELECT \(quotedIdentifier(searched.key)), \(labelExpression(of: searched)) FROM \(searched.target.quotedName) WHERE \(quotedIdentifier(searched.key)) = ?"
        return try database.read { reader in try reader.labels(sql, [value]) }.values.first
    }

    private static func labelExpression(of searched: SearchedKey) -> String {
        searched.target.labelColumn.map { quotedIdentifier(searched.target.columns[$0].name) } ?? quotedIdentifier(searched.key)
    }

    /// The column whose field `_choose` names: one of the list's foreign keys searched for; 400 otherwise.
    private static func searchedKey(_ request: Request, of list: TableList, lists: DatabaseLists, in database: Database) throws -> SearchedKey {
        guard let field = request.query["_choose"], !field.isEmpty else {
            throw HTTPError.badRequest("Say which field to choose a value for (_choose).")
        }
        guard let column = TableForm.columnName(ofField: field), let searched = try searchedKeys(of: list, lists: lists, in: database)[column] else {
            throw HTTPError.badRequest("\(list.title) has no field “\(field.prefix(80))” chosen by searching.")
        }
        return searched
    }

    /// What `q` searches for; 400 for a search too long or holding a NUL.
    private static func searchTerm(_ request: Request) throws -> String {
        let term = request.query["q"] ?? ""
        guard term.utf8.count <= maximumSearchLength else {
            throw HTTPError.badRequest("A search takes at most \(maximumSearchLength) characters.")
        }
        guard !term.utf8.contains(0) else { throw HTTPError.badRequest("A search cannot hold a NUL character.") }
        return String(term.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// The referenced rows whose label holds `term` (any case) or whose key is `term`, by label,
    /// at most ``maximumMatches``: every value bound, the identifiers the schema's.
    private static func matches(of term: String, for searched: SearchedKey, in database: Database) throws -> [(value: String, label: String)] {
        let key = quotedIdentifier(searched.key)
        let label = labelExpression(of: searched)
        var escaped = ""
        for character in term.lowercased() {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        let sql = """
            SELECT \(key), \(label) FROM \(searched.target.quotedName)
            WHERE lower(CAST(\(label) AS TEXT)) LIKE ? ESCAPE '\\' OR CAST(\(key) AS TEXT) = ?
            ORDER BY \(label) LIMIT \(maximumMatches)
            """
        let labels = try database.read { reader in try reader.labels(sql, [.text("%" + escaped + "%"), .text(term)]) }
        return labels.map { (text(of: $0.key), $0.value) }.sorted { ($0.label, $0.value) < ($1.label, $1.value) }
    }

    /// The page of matches: a search box that keeps the form's values, each match a link back to
    /// the form with the key set, and a way back without choosing.
    private static func writeChooser(
        _ searched: SearchedKey, request: Request, list: TableList, editing: Bool, returnPath: String, database: Database,
        into page: inout PageContent
    ) throws {
        let term = try searchTerm(request)
        let field = list.columnIndex(named: searched.column).map { list.labels[$0] } ?? searched.column
        page.title = "Choose \(field)"
        // The form's values, as the GET step carried them (by field name): they go back to the form.
        let columns = Set(TableForm.columns(of: list, editing: editing).filter { !list.isSecret($0) }.map { list.columns[$0].name })
        var kept: [(String, String)] = []
        if editing, let version = request.query["_version"] { kept.append(("version", version)) }
        for item in request.query where !kept.contains(where: { $0.0 == item.name }) {
            guard let column = TableForm.columnName(ofField: item.name), columns.contains(column), column != searched.column else { continue }
            kept.append((item.name, item.value))
        }
        func link(_ extra: [(String, String)]) -> String {
            let query = (kept + extra).map { encoded($0.0) + "=" + encoded($0.1) }.joined(separator: "&")
            return query.isEmpty ? returnPath : returnPath + "?" + query
        }
        let matches = try Self.matches(of: term, for: searched, in: database)
        page.html.raw("<form class=\"choose-search\" role=\"search\" method=\"get\" action=\"")
        page.html.attributeText(request.path)
        page.html.raw("\">")
        for (name, value) in kept + [("_choose", searched.column)] {
            let carriedName = editing && name == "version" ? "_version" : name
            page.html.raw("<input type=\"hidden\"")
            page.html.attribute("name", carriedName)
            page.html.attribute("value", value)
            page.html.raw(">")
        }
        page.html.raw("<label for=\"choose-q\">Search ")
        page.html.text(searched.target.title)
        page.html.raw("</label> <input id=\"choose-q\" class=\"field-input\" type=\"search\" name=\"q\"")
        page.html.attribute("value", term)
        page.html.attribute("maxlength", maximumSearchLength)
        page.html.raw("> <button class=\"button\" type=\"submit\">Search</button></form>")
        page.html.raw("<p class=\"choose-status\" role=\"status\">")
        let shown =
            matches.count >= maximumMatches ? "The first \(maximumMatches) matches" : matches.count == 1 ? "1 match" : "\(matches.count) matches"
        page.html.text(term.isEmpty ? "\(shown), by name. Search to narrow them." : "\(shown) for “\(term)”.")
        page.html.raw("</p><ul class=\"choose-list\">")
        for match in matches {
            page.html.raw("<li><a href=\"")
            page.html.attributeText(link([(TableForm.fieldName(ofColumn: searched.column), match.value)]))
            page.html.raw("\">")
            page.html.text(match.label)
            page.html.raw("</a> <span class=\"choose-key\">")
            page.html.text(match.value)
            page.html.raw("</span></li>")
        }
        page.html.raw("</ul><p><a href=\"")
        page.html.attributeText(link([]))
        page.html.raw("\">Back to the form without choosing</a></p>")
    }

    private static func encoded(_ text: String) -> String {
        PercentEncoding.encoded(text, keeping: PercentEncoding.isUnreserved)
    }
}

extension App {
    /// The form's values a GET carries (the foreign-key search's page sending the form back), by
    /// column: only the form's fields (``TableForm/columnName(ofField:)``), never a secret's, nor
    /// the form's own parameters (the edit's `version`).
    static func sentValues(_ request: Request, of list: TableList, editing: Bool) -> [String: String] {
        let columns = Set(TableForm.columns(of: list, editing: editing).filter { !list.isSecret($0) }.map { list.columns[$0].name })
        var values: [String: String] = [:]
        for item in request.query {
            guard let column = TableForm.columnName(ofField: item.name), columns.contains(column), values[column] == nil else { continue }
            values[column] = item.value
        }
        return values
    }
}
