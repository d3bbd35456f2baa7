import Cellar
import MicroHTTP
import TableKit

/// A table's or view's list for one request: it reads the request's filters, search, order and
/// cursor when made (a 400 for any that does not fit the table), fetches its one page when Cellar
/// asks (after validators: a 304 costs no query), and hands each row to a ``DatabaseRowCell``.
///
/// A table pages by keyset: the next page starts after the last row's sort values and key, so a
/// page deep in a million rows costs what the first does. A view, which has no key, or a request
/// that names an `offset`, pages by offset.
public class DatabaseListController: FetchedPageController, JSONItemWriting, FormatLinksPlacing {
    let list: TableList
    let lists: DatabaseLists
    let database: Database
    let context: ListContext
    let query: TableQuery
    let cursor: ListCursor?
    /// What the request's actor may do to a row of a writable table: a row page links to them.
    var allowedRowActions: (update: Bool, delete: Bool) = (false, false)
    /// The key's values asked for on a detail route; nil for the list.
    let detailKey: [DatabaseValue]?
    public let contentVersion: String?
    /// The list with the filter form's fields turned into a filter, when the request came from it.
    private let filterFormTarget: String?
    let facetRequest: FacetRequest
    /// The facets asked for, counted with the page.
    private(set) var facets: [Facet] = []
    /// Columns to offer as facets.
    private(set) var suggestedFacets: [Int] = []
    /// The version of the data the page was read at: SQLite's ``contentVersion``, or PostgreSQL's
    /// snapshot; what counts and facets are kept by.
    private var dataVersion: String?

    /// The page, once fetched (empty before).
    private(set) var page: PageRows
    private var hasNextPage = false
    private var count = RowCount(rows: 0, isExact: true)
    /// The page's sections when rows are grouped: each one's rows and its value; one section otherwise.
    private var sections: [(rows: Range<Int>, value: DatabaseValue, count: RowCount)] = []
    /// A detail page's row: the rows of other lists that reference it.
    private var references: [RowDetail.Reference] = []

    /// - Parameter version: the data's version, when the caller has just read it (``DatabaseCatalog/list(named:)``).
    init(list: TableList, lists: DatabaseLists, database: Database, context: ListContext, version: String?? = nil) throws {
        self.list = list
        self.lists = lists
        self.database = database
        self.context = context
        query = try TableQuery(list: list, context: context)
        facetRequest = try FacetRequest(list: list, context: context)
        page = PageRows(
            list: list, rows: FetchedRows(columnCount: 0), firstRow: 0, linkLabels: [], linkBases: lists.linkBases[list.schema.name] ?? [])
        filterFormTarget = try Self.filterFormTarget(list: list, context: context)
        // The filter form's answer is a redirect, which starts the list from its first page.
        if filterFormTarget == nil, let token = context.page.cursor {
            guard list.hasKey,
                let cursor = ListCursor(token: token, orderSignature: query.orderSignature, valueCount: query.order.count)
            else {
                throw HTTPError.badRequest(
                    "This cursor does not belong to \(list.title) with this sort, these filters and this search: follow the list's own links (a cursor is kept with what it was made for)."
                )
            }
            self.cursor = cursor
        } else {
            cursor = nil
        }
        detailKey = context.rowIdentifier.flatMap { Self.key(from: $0, of: list) }
        contentVersion = try version ?? database.currentVersion()
    }

    public var action: ControllerAction {
        filterFormTarget.map { .redirect(to: $0) } ?? .render
    }

    // MARK: Fetching

    private var limit: Int { context.page.limit ?? database.options.defaultLimit }
    private var offset: Int { cursor == nil ? context.page.offset : 0 }
    /// Whether pages are reached by cursor (a table not asked for an offset).
    private var pagesByKeyset: Bool { list.hasKey && (cursor != nil || context.page.offset == 0) }

    public func fetchPage() throws {
        if context.rowIdentifier != nil {
            try fetchDetailRow()
            return
        }
        let (sql, values) = query.pageSQL(after: cursor, offset: offset, limit: limit)
        var rows = newRows(expected: limit + 1)
        try database.read { connection in
            try connection.appendRows(of: sql, values, to: &rows)
            hasNextPage = rows.count > limit
            if hasNextPage { rows.removeLastRow() }
            let countVersion = try contentVersion ?? connection.snapshotVersion()
            dataVersion = countVersion
            count = try countRows(query.countSQL(cap: database.options.countLimit), connection, version: countVersion)
            page = try pageRows(rows, connection)
            try groupSections(connection, countVersion: countVersion)
        }
        facets = try countFacets(facetRequest, version: dataVersion)
        if list.hasKey { suggestedFacets = suggestFacets(excluding: facetRequest.columns, version: dataVersion) }
    }

    private func newRows(expected: Int) -> FetchedRows {
        FetchedRows(columnCount: list.selectedColumnCount, expectedRows: expected)
    }

    private func fetchDetailRow() throws {
        guard let key = detailKey, let rowQuery = list.rowQuery else { return }
        var rows = newRows(expected: 1)
        try database.read { connection in
            try connection.appendRows(of: rowQuery, key, to: &rows)
            page = try pageRows(rows, connection)
            if rows.count == 1 { references = try countReferences(connection, version: try contentVersion ?? connection.snapshotVersion()) }
        }
        sections = [(0..<rows.count, .null, count)]
    }

    /// The rows of every list that reference the detail page's row, counted up to
    /// ``IncomingReference/countLimit`` (kept per version of the data, as totals are).
    private func countReferences(_ connection: any DatabaseReader, version: String?) throws -> [RowDetail.Reference] {
        let incoming = lists.incoming[list.schema.name] ?? []
        var references: [RowDetail.Reference] = []
        for reference in incoming {
            let value = page.rows.databaseValue(row: 0, column: reference.referencedColumn)
            guard value != .null, let text = page.rows.string(row: 0, column: reference.referencedColumn) else { continue }
            if case .blob = value { continue }
            let counted = try countRows(
                (reference.countSQL, [value, .integer(Int64(IncomingReference.countLimit) + 1)]), connection, version: version,
                cap: IncomingReference.countLimit)
            let several = incoming.filter { $0.list === reference.list }.count > 1
            references.append(
                RowDetail.Reference(
                    text: reference.text(count: counted, referenced: list, severalColumns: several), link: reference.link(value: text),
                    list: reference.list.schema.name, column: reference.list.columns[reference.column].name, count: counted.rows,
                    countIsExact: counted.isExact))
        }
        return references
    }

    /// Counts the rows a count query keeps, up to the count limit, or takes the count from the
    /// cache at this version of the data: SQLite's ``contentVersion``, or PostgreSQL's snapshot
    /// (``DatabaseReader/snapshotVersion()``), so that a list is counted again only after a write.
    private func countRows(
        _ counting: (sql: String, bindings: [DatabaseValue]), _ connection: any DatabaseReader, version: String?, cap: Int? = nil
    ) throws -> RowCount {
        let key = CountCache.Key(sql: counting.sql, bindings: counting.bindings)
        if let version, let known = database.counts.value(for: key, version: version) { return known }
        let counted = try connection.integer(counting.sql, counting.bindings)
        let cap = cap ?? database.options.countLimit
        let result = RowCount(rows: min(counted, cap), isExact: counted <= cap)
        if let version { database.counts.store(result, for: key, version: version) }
        return result
    }

    /// Splits the page into sections, one per run of equal values of the section column, each
    /// counted in the whole list. Each page numbers its sections from 0: a section is named
    /// across pages by its value (``identifier(forSection:)``).
    private func groupSections(_ connection: any DatabaseReader, countVersion: String?) throws {
        let rows = page.rows
        guard let column = list.sectionColumn, rows.count > 0 else {
            sections = [(0..<rows.count, .null, count)]
            return
        }
        var result: [(rows: Range<Int>, value: DatabaseValue, count: RowCount)] = []
        var start = 0
        var value = rows.databaseValue(row: 0, column: column)
        for row in 1...rows.count {
            let next: DatabaseValue? = row < rows.count ? rows.databaseValue(row: row, column: column) : Optional.none
            if next?.isInSameSection(as: value) != true {
                let counted = try countRows(
                    query.countSQL(cap: database.options.countLimit, column: column, value: value), connection, version: countVersion)
                result.append((start..<row, value, counted))
                if let next { value = next }
                start = row
            }
        }
        sections = result
    }

    /// The fetched rows as a page, with the label of every row a foreign key on it references:
    /// one query per linking column, for the keys on the page.
    private func pageRows(_ rows: FetchedRows, _ connection: any DatabaseReader) throws -> PageRows {
        var linkLabels: [[DatabaseValue: String]?] = Array(repeating: nil, count: list.columns.count)
        for (column, table) in list.links where list.shownColumns.contains(column) || context.rowIdentifier != nil {
            guard let target = lists.byName[table], let labelQuery = target.labelQuery,
                let labelQueryForOneKey = target.labelQueryForOneKey
            else { continue }
            // The page's keys as one parameter: one statement whatever their number.
            var keys: [DatabaseValue] = []
            var seen = Set<DatabaseValue>()
            for row in 0..<rows.count {
                let value = rows.databaseValue(row: row, column: column)
                guard value != .null, seen.insert(value).inserted else { continue }
                keys.append(value)
            }
            guard let first = keys.first else { continue }
            linkLabels[column] =
                keys.count == 1
                ? try connection.labels(labelQueryForOneKey, [first])
                : try connection.labels(labelQuery, [connection.dialect.keyList(keys)])
        }
        return PageRows(list: list, rows: rows, firstRow: cursor?.position ?? offset, linkLabels: linkLabels, linkBases: page.linkBases)
    }

    public var fetchedPage: FetchedPage {
        let rows = page.rows
        let firstRow = cursor?.position ?? offset
        let shownEnd = firstRow + rows.count
        var total = count.rows
        var isExact = count.isExact
        // Past the counted rows, the total is at least what has been seen (a page past the end
        // has seen nothing, and says nothing of the total).
        if rows.count > 0, !isExact || shownEnd > total {
            total = max(total, shownEnd + (hasNextPage ? 1 : 0))
            isExact = count.isExact && !hasNextPage && shownEnd >= total
        }
        var next: PageAnchor?
        if hasNextPage, rows.count > 0 {
            // By keyset while the last row's sort values fit in a URL; by offset from there on.
            let last = rows.count - 1
            if pagesByKeyset,
                let token = ListCursor(
                    position: shownEnd, orderSignature: query.orderSignature,
                    values: query.order.map { rows.databaseValue(row: last, column: $0.column) }
                ).token
            {
                next = .cursor(token)
            } else {
                next = .offset(shownEnd)
            }
        }
        let previous: PageAnchor? = cursor == nil && offset > 0 ? .offset(max(0, offset - limit)) : nil
        return FetchedPage(firstRow: firstRow, total: total, totalIsExact: isExact, next: next, previous: previous)
    }

    // MARK: The table

    public var title: String { list.title }
    public var numberOfSections: Int { max(sections.count, 1) }
    public func numberOfRows(inSection section: Int) -> Int { section < sections.count ? sections[section].rows.count : 0 }

    /// The row of ``rows`` at `indexPath`.
    func flatRow(_ indexPath: IndexPath) -> Int {
        indexPath.section < sections.count ? sections[indexPath.section].rows.lowerBound + indexPath.row : indexPath.row
    }

    public func titleForHeader(inSection section: Int) -> String? {
        guard let column = list.sectionColumn, section < sections.count, !sections[section].rows.isEmpty else { return nil }
        switch sections[section].value {
        case .null: return "\(list.labels[column]): none"
        case .text(let text): return text
        case .integer(let integer): return page.linkLabels[column]?[.integer(integer)] ?? "\(list.labels[column]) \(integer)"
        case .real(let real): return "\(list.labels[column]) \(DatabaseValue.text(for: real))"
        case .blob(let bytes): return "\(list.labels[column]): \(bytes.count)-byte blob"
        }
    }

    /// The section's value, typed (``DatabaseValue/sectionIdentifier``): the same group has the
    /// same identifier on every page, whatever its number there. The list's one section, when
    /// rows are not grouped, is `0`.
    public func identifier(forSection section: Int) -> String {
        guard list.sectionColumn != nil, section < sections.count else { return String(section) }
        return sections[section].value.sectionIdentifier
    }

    public func titleForFooter(inSection section: Int) -> String? {
        guard list.sectionColumn != nil, section < sections.count, !sections[section].rows.isEmpty else { return nil }
        let counted = sections[section].count
        let number = counted.rows.formatted()
        return counted.isExact ? (counted.rows == 1 ? "1 row" : "\(number) rows") : "at least \(number) rows"
    }

    public func identifier(forRowAt indexPath: IndexPath) -> String {
        identifier(ofRow: flatRow(indexPath))
    }

    func identifier(ofRow row: Int) -> String { page.identifier(ofRow: row) }

    public func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
        page.count == 1 && context.rowIdentifier == identifier ? IndexPath(row: 0, section: 0) : nil
    }

    /// ``DatabaseRowCell``'s identifier, spelled once: a class's name is a locked lookup.
    private static let rowCellIdentifier = DatabaseRowCell.reuseIdentifier

    /// The configured rule's cell, or the list's own: ``DatabaseColumnsCell`` in the columns
    /// layout, ``DatabaseRowCell`` in the cells layout. Without rules, every row's: dequeued by
    /// its class, with no name looked up per row.
    public func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let row = DatabaseRow(page: page, row: flatRow(indexPath))
        if let cells = list.cells { return cells(row, indexPath) }
        guard let rules = list.cellRules else { return defaultCellProvider(for: indexPath, row: row) }
        let identifier = list.cellIdentifier(forValue: page.rows.string(row: row.row, column: rules.column))
        if identifier == Self.rowCellIdentifier { return defaultCellProvider(for: indexPath, row: row) }
        return DataCellProvider(prototype: identifier, for: indexPath, data: row)
    }

    private func defaultCellProvider(for indexPath: IndexPath, row: DatabaseRow) -> DataCellProvider {
        // A detail page's row is written in the cells layout, which its JSON names.
        list.usesColumns && context.rowIdentifier == nil
            ? DataCellProvider(for: indexPath, cell: DatabaseColumnsCell.self, data: row, registerCell: false)
            : DataCellProvider(for: indexPath, cell: DatabaseRowCell.self, data: row, registerCell: false)
    }

    public func detail(forRowAt indexPath: IndexPath) -> RowDetail? {
        let row = flatRow(indexPath)
        let page = page
        let fields = list.visibleColumns.map { column in
            RowDetail.Field(
                list.labels[column], page.text(row: row, column: column), link: page.link(row: row, column: column),
                isNull: page.rows.databaseValue(row: row, column: column) == .null)
        }
        var detail = RowDetail(
            title: page.rows.string(row: row, column: list.titleColumn) ?? identifier(forRowAt: indexPath), fields: fields, references: references)
        if list.hasKey {
            let version = RowVersion.of(list.columns.indices.map { page.rows.databaseValue(row: row, column: $0) })
            detail.version = version
            let rowPath = ListRoute.percentEncodedPath(list.path) + "/" + Self.percentEncodedSegment(identifier(forRowAt: indexPath))
            if allowedRowActions.update { detail.actions.append(.init("Edit", path: rowPath + "/-/edit?version=" + version)) }
            if allowedRowActions.delete {
                detail.actions.append(.init("Delete", path: rowPath + "/-/delete?version=" + version, posts: true, style: .destructive))
            }
        }
        return detail
    }

    public func item(forRowAt indexPath: IndexPath) -> (any Encodable)? {
        let row = flatRow(indexPath)
        let rows = page.rows
        let columns = list.visibleColumns
        return DatabaseRowItem(names: columns.map { list.columns[$0].name }, values: columns.map { rows.databaseValue(row: row, column: $0) })
    }

    public func writeItem(forRowAt indexPath: IndexPath, into json: inout JSONWriter) -> Bool {
        page.writeItem(row: flatRow(indexPath), into: &json)
        return true
    }

    // MARK: Keys

    /// The key's values from a detail route's identifier, read by the key columns' types; nil when
    /// it cannot name a row (a wrong number of parts, text in an integer key).
    static func key(from identifier: String, of list: TableList) -> [DatabaseValue]? {
        guard list.hasKey else { return nil }
        let parts: [String]
        if list.keyColumns.count == 1 {
            parts = [identifier]
        } else {
            let split = identifier.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard split.count == list.keyColumns.count else { return nil }
            parts = split.map { $0.replacing("%2C", with: ",").replacing("%2c", with: ",").replacing("%25", with: "%") }
        }
        return RowKey.values(ofParts: parts, in: list)
    }

    static func percentEncodedSegment(_ value: String) -> String {
        var html = HTMLWriter()
        html.pathSegment(value)
        return html.string
    }

    static func base64(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        base64Text(bytes)
    }
}
