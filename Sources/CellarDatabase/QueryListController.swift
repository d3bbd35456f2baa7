import ByteWriters
import Cellar
import MicroHTTP
import TableKit

/// What a query list runs: the statement the request brings (`/-/query`), or a canned one from the
/// configuration (`/-/queries/{name}`), with the names of its parameters (without their `:`).
enum QuerySource: Sendable {
    case written
    case canned(sql: String, parameters: [String])
}

/// `/-/query`: the result of one read-only SQL statement (`sql=`, in the URL or a form POST) as a
/// list — its rows in the columns layout (``DatabaseColumnsCell``s, as a table's list), its JSON and
/// fragment as any list's — under a form to edit and run it again (the table header). Without a
/// statement, the page is the form alone. A canned query's list (`/-/queries/{name}`) runs its own
/// statement, once every parameter has a value, with a field for each in the form.
///
/// Pages by offset: the statement is run again for each page and the rows before it stepped over
/// (``QueryRunner``), so a page costs what reaching it costs, within the query time limit. Without a
/// ``contentVersion``: a statement may read the clock or `random()`, so a page's `ETag` is its bytes'.
final class QueryListController: FetchedPageController, JSONItemWriting, FormatLinksPlacing {
    let runner: QueryRunner
    let context: ListContext
    private let defaultLimit: Int
    let source: QuerySource
    private let listTitle: String
    /// The statement, as sent or configured.
    let sql: String
    /// A canned query's parameters' values, by name; every one must have one for the query to run.
    private let parameters: [String: String]
    private var page: PageRows
    private var hasMore = false
    private var stoppedAtByteLimit = false

    init(runner: QueryRunner, source: QuerySource = .written, title: String = "Run SQL", context: ListContext, defaultLimit: Int) throws {
        self.runner = runner
        self.source = source
        self.context = context
        self.defaultLimit = defaultLimit
        listTitle = title
        switch source {
        case .written:
            sql = context.query["sql"] ?? ""
            parameters = [:]
        case .canned(let statement, let names):
            sql = statement
            var values: [String: String] = [:]
            for name in names { values[name] = context.query[name] }
            parameters = values
        }
        guard context.page.cursor == nil else {
            throw HTTPError.badRequest("A query's pages are reached by offset (offset=), not by cursor: follow the page's own links.")
        }
        try QueryRunner.check(sql)
        page = PageRows(
            list: try TableList.queryResult(columns: [], path: context.listPath), rows: FetchedRows(columnCount: 0), firstRow: 0,
            linkLabels: [], linkBases: [])
    }

    /// Whether there is a statement to run (not only spaces), and a value for each of its parameters.
    private var hasStatement: Bool {
        switch source {
        case .written: sql.contains { !$0.isWhitespace }
        case .canned(_, let names): names.allSatisfy { parameters[$0] != nil }
        }
    }
    private var limit: Int { min(context.page.limit ?? defaultLimit, QueryRunner.rowCap) }

    public func fetchPage() throws {
        guard hasStatement else { return }
        let result = try runner.run(sql, parameters: parameters, offset: context.page.offset, limit: limit, for: context.request)
        let list: TableList
        do {
            list = try TableList.queryResult(columns: result.columns, path: context.listPath)
        } catch {
            throw HTTPError.badRequest("The statement's columns cannot be shown as a list: \(error.message).")
        }
        page = PageRows(list: list, rows: result.rows, firstRow: result.firstRow, linkLabels: [], linkBases: [])
        hasMore = result.hasMore
        stoppedAtByteLimit = result.stoppedAtByteLimit
    }

    public var fetchedPage: FetchedPage {
        let end = page.firstRow + page.count
        return FetchedPage(
            firstRow: page.firstRow, total: end + (hasMore ? 1 : 0), totalIsExact: !hasMore, next: hasMore ? .offset(end) : nil,
            previous: page.firstRow > 0 ? .offset(max(0, page.firstRow - limit)) : nil)
    }

    // MARK: The table

    public var title: String { listTitle }
    public func numberOfRows(inSection section: Int) -> Int { section == 0 ? page.count : 0 }
    public func identifier(forRowAt indexPath: IndexPath) -> String { page.identifier(ofRow: indexPath.row) }
    public func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? { nil }
    public func detail(forRowAt indexPath: IndexPath) -> RowDetail? { nil }
    public var contentVersion: String? { nil }

    public var action: ControllerAction {
        guard stoppedAtByteLimit else { return .render }
        return .alert(
            Alert(
                .info,
                "This page stops after \(page.count.formatted()) rows: their values reach \(QueryRunner.pageByteLimit.formatted()) bytes. The next page goes on from there."
            ))
    }

    /// The columns layout, as a table's list has by default: the statement's columns in its order,
    /// the first one heading each row; a column is numeric when every value of it on the page is a
    /// number. A query's order is its own `ORDER BY`: its headers do not sort.
    public var style: TableStyle {
        let list = page.list
        guard !list.columns.isEmpty else { return .cells }
        return .columns(
            list.columnOrder.map { column in
                TableColumn(list.labels[column], isNumeric: isNumeric(column))
            })
    }

    private func isNumeric(_ column: Int) -> Bool {
        var numbers = 0
        for row in 0..<page.count {
            switch page.rows.value(row: row, column: column) {
            case .integer, .real: numbers += 1
            case .null: continue
            case .text, .blob: return false
            }
        }
        return numbers > 0
    }

    public func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(for: indexPath, cell: DatabaseColumnsCell.self, data: DatabaseRow(page: page, row: indexPath.row), registerCell: false)
    }

    public func item(forRowAt indexPath: IndexPath) -> (any Encodable)? {
        let rows = page.rows
        return DatabaseRowItem(
            names: page.list.columns.map(\.name), values: page.list.columns.indices.map { rows.databaseValue(row: indexPath.row, column: $0) })
    }

    public func writeItem(forRowAt indexPath: IndexPath, into json: inout JSONWriter) -> Bool {
        page.writeItem(row: indexPath.row, into: &json)
        return true
    }

    /// `"columns"`: the result's column names in the statement's order (as Datasette's JSON has
    /// them), so that a client reads a row's fields in order, and an empty result still names them.
    public func writeListMembers(into json: inout JSONWriter) {
        json.member("columns")
        json.raw("[")
        for (index, column) in page.list.columns.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(column.name)
        }
        json.raw("]")
    }

    // MARK: The form

    public func renderTableHeader(into html: inout HTMLWriter) {
        let listHref = ListRoute.percentEncodedPath(context.listPath)
        html.raw("<form class=\"search query\" method=\"get\"")
        html.attribute("action", listHref)
        html.raw(">")
        var query = QueryItems()
        switch source {
        case .written:
            html.raw(
                "<label for=\"sql\">SQL</label><textarea id=\"sql\" name=\"sql\" rows=\"6\" spellcheck=\"false\" autocapitalize=\"off\" autocomplete=\"off\" aria-describedby=\"sql-help\">"
            )
            html.text(sql)
            html.raw("</textarea>")
            query.append(name: "sql", value: sql)
        case .canned(_, let names):
            for name in names {
                html.raw("<label")
                html.attribute("for", "parameter-" + name)
                html.raw(">")
                html.text(name)
                html.raw("</label><input type=\"text\"")
                html.attribute("id", "parameter-" + name)
                html.attribute("name", name)
                html.attribute("value", parameters[name] ?? "")
                html.raw(" aria-describedby=\"sql-help\">")
                query.append(name: name, value: parameters[name] ?? "")
            }
        }
        html.raw("<p id=\"sql-help\" class=\"hint\">")
        switch source {
        case .written:
            html.text(
                "One statement that reads (SELECT, WITH, VALUES), within \(Database.seconds(runner.timeLimit)) and \(QueryRunner.rowCap.formatted()) rows a page."
            )
        case .canned:
            html.text("Each value is given to the statement as text; it runs within \(Database.seconds(runner.timeLimit)).")
        }
        html.raw("</p><button type=\"submit\">Run</button></form>\n")
        if case .canned = source {
            html.raw("<details class=\"formats\"><summary>SQL</summary><pre><code>")
            html.text(sql)
            html.raw("</code></pre></details>\n")
        }
        guard hasStatement else { return }
        html.raw("<p class=\"formats\">This result as ")
        ListFormat.writeLinks(toListAt: listHref, query: query, into: &html)
        html.raw(" (the CSV at most ")
        html.text(QueryRunner.rowCap.formatted())
        html.raw(" rows).</p>\n")
    }
}
