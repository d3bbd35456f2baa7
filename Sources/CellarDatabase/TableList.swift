import Cellar
import TableKit

/// One table or view served as a list: its columns, the SQL that reads its rows, and how its rows
/// are shown — from the schema, and from the configuration where it says more. Made once when the
/// database is mounted.
final class TableList: Sendable {
    let schema: TableSchema
    /// The list's route path, as routes match it (decoded: `/my table`).
    let path: String
    let title: String
    /// A line about the list, for its page and the index.
    let description: String?
    /// The table's columns, in order: what a row's JSON item holds.
    var columns: [ColumnSchema] { schema.columns }
    /// The columns a row shows, in order (all of them unless configured).
    let shownColumns: [Int]
    /// The columns whose values are counted above the list (configured `facets`).
    let facetColumns: [Int]
    /// The columns that may be suggested as facets (a table's, outside its key, not blobs), and
    /// the query that counts each one's different values in the first 1,000 rows; nil for a view.
    let facetSuggestion: (candidates: [Int], sql: String)?
    /// The columns in the order the columns layout shows them: the title column, then the other
    /// shown columns.
    let columnOrder: [Int]
    /// Each column's label: its name unless configured.
    let labels: [String]
    /// What every query selects: each column (`NULL` in a secret one's place), then the rowid
    /// when it is the key.
    let selection: String
    /// The columns configured `secret`: written, never read back (``TableList+Secret``).
    let secretColumns: Set<Int>
    /// How the engine's SQL is written where SQLite's and PostgreSQL's differ.
    let dialect: SQLDialect
    /// `"table"`, quoted.
    let quotedName: String
    /// Each column's name, quoted, in the schema's order: what a write's statement names.
    let quotedColumnNames: [String]
    /// The SQL text of the writes made so far, by shape.
    let writeStatements = WriteStatements()
    /// Where the key's columns are in the selection (empty for a view: its rows have no detail).
    let keyColumns: [Int]
    /// The key's SQL expressions (`"t"."id"`, or `"t".rowid`).
    let keyExpressions: [String]
    /// Whether each key column can hold NULL (SQLite lets a declared key other than an INTEGER
    /// PRIMARY KEY hold several).
    let keyIsNullable: [Bool]
    /// The rowid, selected after the columns to break ties between rows whose nullable key is
    /// NULL; nil when the key is never NULL.
    let rowIDTieBreak: (column: Int, expression: String)?
    /// The values each fetched row holds: the columns, then the rowid when it is selected.
    let selectedColumnCount: Int
    /// The column whose value titles a row: the first column of the columns layout, a detail page's title.
    let titleColumn: Int
    /// The column whose value labels the links that lead to a row (``LabelColumn``); nil when the key does.
    let labelColumn: Int?
    /// Columns that reference another table's rows: that table's name.
    let links: [Int: String]
    /// The order when the request names none (`sort=` keys).
    let defaultSort: [SortKey]
    /// The column that holds each row's place (YAML `order: position`): rows are sorted by it
    /// unless `sort` says otherwise, and editing mode moves rows by rewriting it.
    let positionColumn: Int?
    /// Rows on a page when the request names no limit.
    let pageSize: Int?
    /// The column rows are grouped by, one section per value on the page.
    let sectionColumn: Int?
    /// The cell each row gets, by one column's value.
    let cellRules: (column: Int, when: [String: String], defaultCell: String)?
    /// The app's own cell provider, when it mounted the table with one: it chooses every row's cell.
    let cells: DatabaseCellProvider?
    /// Whether rows are shown as the columns of a table: by default, unless the table has cell
    /// rules or the app's own cells, which keep the cells layout unless configured otherwise.
    let usesColumns: Bool
    /// Each column's field up to its value's tag, escaped once: `<div><dt>label</dt><dd`.
    let fieldOpenings: [String]
    /// The SELECT of one row by its key; nil without a key.
    let rowQuery: String?
    /// The SELECT of the labels of the rows whose keys are in one parameter (``SQLDialect/keyList(_:)``),
    /// for the links that lead here; nil when a row has no label of its own.
    let labelQuery: String?
    /// The same for one key (a detail page's): a plain comparison, lighter than reading a JSON array.
    let labelQueryForOneKey: String?
    /// Each column's `"name":` for a row's JSON item, escaped once.
    let jsonKeys: [[UInt8]]
    /// What `q=` searches, or nil when the list has no search.
    let search: TableSearch?
    var isSearchable: Bool { search != nil }
    var hasKey: Bool { !keyColumns.isEmpty }

    /// - Throws: ``ConfigurationError`` for a configured column the table does not have.
    init(
        schema: TableSchema, path: String, tableNames: Set<String>, configuration: DatabaseConfiguration.Table? = nil,
        in file: DatabaseConfiguration = DatabaseConfiguration(), cells: DatabaseCellProvider? = nil, dialect: SQLDialect = .sqlite,
        label: LabelColumn.Choice = .unsampled
    ) throws(ConfigurationError) {
        self.cells = cells
        self.dialect = dialect
        self.schema = schema
        self.path = path
        let key = "tables." + schema.name
        func column(_ name: String, _ at: String) throws(ConfigurationError) -> Int {
            guard let index = schema.columns.firstIndex(where: { $0.name == name }) else {
                throw file.error(
                    at, "\(schema.name) has no column “\(name)”; its columns are \(schema.columns.map(\.name).joined(separator: ", "))")
            }
            return index
        }
        let secret = try Self.secretColumns(of: schema, configuration: configuration, in: file)
        secretColumns = secret
        func visible(_ name: String, _ at: String) throws(ConfigurationError) -> Int {
            let index = try column(name, at)
            guard !secret.contains(index) else { throw file.error(at, Self.secretMisuse(name)) }
            return index
        }
        title = configuration?.title ?? schema.name
        description = configuration?.description
        let quotedName = quotedIdentifier(schema.name)
        self.quotedName = quotedName
        quotedColumnNames = schema.columns.map { quotedIdentifier($0.name) }
        var expressions = schema.columns.indices.map { index in
            secret.contains(index) ? "NULL" : quotedName + "." + quotedIdentifier(schema.columns[index].name)
        }
        var keyColumns: [Int] = []
        var keyExpressions: [String] = []
        if schema.keyIsRowID, let rowID = schema.key.first {
            keyColumns = [expressions.count]
            keyExpressions = [quotedName + "." + rowID]
            expressions.append(quotedName + "." + rowID)
        } else {
            for name in schema.key {
                guard let index = schema.columns.firstIndex(where: { $0.name == name }) else { continue }
                if secret.contains(index) {
                    throw file.error(key + ".secret", "“\(name)” is \(schema.name)'s key, in every link: it cannot be secret")
                }
                keyColumns.append(index)
                keyExpressions.append(expressions[index])
            }
            if keyColumns.count != schema.key.count { keyColumns = [] }
        }
        // An INTEGER PRIMARY KEY is the rowid and never NULL; any other declared key column may be.
        let integerKey =
            schema.primaryKey.count == 1 && !schema.withoutRowID
            && schema.columns.first { $0.name == schema.primaryKey[0] }?.declaredType.uppercased() == "INTEGER"
        let nullable = keyColumns.map { column in
            column < schema.columns.count && !schema.columns[column].notNull && !integerKey && !schema.withoutRowID
        }
        if nullable.contains(true), !keyColumns.isEmpty, schema.kind == .table,
            let rowID = TableSchema.rowIDName(avoiding: schema.columns.map(\.name))
        {
            rowIDTieBreak = (expressions.count, quotedName + "." + rowID)
            expressions.append(quotedName + "." + rowID)
        } else {
            rowIDTieBreak = nil
        }
        keyIsNullable = nullable
        selectedColumnCount = expressions.count
        selection = expressions.joined(separator: ", ")
        self.keyColumns = keyColumns
        self.keyExpressions = keyColumns.isEmpty ? [] : keyExpressions

        var shown = schema.columns.indices.filter { !secret.contains($0) }
        if let names = configuration?.columns {
            shown = []
            for name in names { shown.append(try visible(name, key + ".columns")) }
        }
        shownColumns = shown
        var labels = schema.columns.map(\.name)
        for (name, label) in configuration?.labels ?? [:] { labels[try column(name, key + ".labels." + name)] = label }
        self.labels = labels
        if let name = configuration?.labelColumn {
            titleColumn = try visible(name, key + ".label")
            labelColumn = titleColumn
        } else if case .sampled(let sampled) = label {
            labelColumn = sampled
            let realKey = keyColumns.count == 1 && keyColumns[0] < schema.columns.count ? keyColumns[0] : nil
            titleColumn = sampled ?? realKey ?? Self.titleColumn(of: schema, secret: secret)
        } else {
            titleColumn = Self.titleColumn(of: schema, secret: secret)
            labelColumn = titleColumn
        }
        var facetColumns: [Int] = []
        for name in configuration?.facets ?? [] {
            let index = try visible(name, key + ".facets")
            if !facetColumns.contains(index) { facetColumns.append(index) }
        }
        guard facetColumns.count <= FacetRequest.maximumFacets else {
            throw file.error(key + ".facets", "at most \(FacetRequest.maximumFacets) facets a table (this one has \(facetColumns.count))")
        }
        self.facetColumns = facetColumns
        let candidates = schema.columns.indices.filter { column in
            !keyColumns.contains(column) && schema.columns[column].affinity != .blob && !secret.contains(column)
        }
        if schema.kind == .table, !candidates.isEmpty {
            let expressions = candidates.map { Self.comparable(schema.columns[$0], in: quotedName) }
            let sample =
                "SELECT " + expressions.enumerated().map { "\($1) AS c\($0)" }.joined(separator: ", ") + " FROM \(quotedName) LIMIT 1000"
            let counts = candidates.indices.map { "count(DISTINCT c\($0))" }.joined(separator: ", ")
            facetSuggestion = (candidates, "SELECT count(*), \(counts) FROM (\(sample)) AS sampled")
        } else {
            facetSuggestion = nil
        }
        let title = titleColumn
        columnOrder = [title] + shown.filter { $0 != title }
        var sort: [SortKey] = []
        for name in configuration?.sort ?? [] {
            let descending = name.hasPrefix("-")
            let columnName = descending ? String(name.dropFirst()) : name
            _ = try visible(columnName, key + ".sort")
            sort.append(SortKey(columnName, ascending: !descending))
        }
        positionColumn = try configuration?.order.map { name throws(ConfigurationError) in try visible(name, key + ".order") }
        if sort.isEmpty, let name = configuration?.order { sort = [SortKey(name, ascending: true)] }
        defaultSort = sort
        pageSize = configuration?.pageSize
        sectionColumn = try configuration?.sections.map { name throws(ConfigurationError) in try visible(name, key + ".sections") }
        if let rules = configuration?.cells {
            cellRules = (try visible(rules.column, key + ".cells.column"), rules.when, rules.defaultCell ?? DatabaseRowCell.reuseIdentifier)
        } else {
            cellRules = nil
        }
        var links: [Int: String] = [:]
        for foreignKey in schema.foreignKeys where foreignKey.columns.count == 1 && tableNames.contains(foreignKey.referencedTable) {
            guard let index = schema.columns.firstIndex(where: { $0.name == foreignKey.columns[0] }), !secret.contains(index) else { continue }
            links[index] = foreignKey.referencedTable
        }
        self.links = links
        let defaultLayout: DatabaseConfiguration.Layout = cells != nil || configuration?.cells != nil ? .cells : .columns
        usesColumns = (configuration?.layout ?? defaultLayout) == .columns
        search = try TableSearch.resolve(schema: schema, settings: configuration?.search, dialect: dialect, in: file)
        try Self.checkSearch(search, reads: secret, of: schema, in: file)
        rowQuery =
            keyColumns.isEmpty
            ? nil
            : "SELECT \(selection) FROM \(quotedName) WHERE " + keyExpressions.map { "\($0) = ?" }.joined(separator: " AND ")
        if keyColumns.count == 1, let labelColumn, keyColumns[0] != labelColumn, let key = keyExpressions.first {
            let title = quotedName + "." + quotedIdentifier(schema.columns[labelColumn].name)
            labelQuery = dialect.labelQuery(key: key, title: title, table: quotedName)
            labelQueryForOneKey = "SELECT \(key), \(title) FROM \(quotedName) WHERE \(key) = ?"
        } else {
            labelQuery = nil
            labelQueryForOneKey = nil
        }
        jsonKeys = schema.columns.map { column in
            var json = JSONWriter()
            json.key(column.name)
            return json.takeBytes()
        }
        fieldOpenings = labels.map { label in
            var html = HTMLWriter()
            html.raw("<div><dt>")
            html.text(label)
            html.raw("</dt><dd")
            return html.string
        }
    }

    /// A column whose name says it titles a row (`title`, `name`, `label`…), else the first text
    /// column outside the key, else the first column: without a look at the rows (``LabelColumn``
    /// looks at them).
    static func titleColumn(of schema: TableSchema, secret: Set<Int> = []) -> Int {
        let names = ["title", "name", "label", "display_name", "full_name", "heading", "subject", "headline"]
        let columns = schema.columns.indices.filter { !secret.contains($0) }
        for name in names {
            if let index = columns.first(where: { schema.columns[$0].name.lowercased() == name }) { return index }
        }
        if let index = columns.first(where: { schema.columns[$0].affinity == .text && !schema.primaryKey.contains(schema.columns[$0].name) }) {
            return index
        }
        return columns.first ?? 0
    }

    /// The identifier of the cell a row gets when its rule column holds `value`.
    func cellIdentifier(forValue value: String?) -> String {
        guard let rules = cellRules else { return DatabaseRowCell.reuseIdentifier }
        return value.flatMap { rules.when[$0] } ?? rules.defaultCell
    }

    /// The column named `name` (a sort or filter parameter), by its exact name.
    func columnIndex(named name: String) -> Int? {
        schema.columns.firstIndex { $0.name == name }
    }

    /// The column as SQL where it is compared, sorted or grouped: its text when its type has no
    /// order of its own (``ColumnSchema/isOrderable``), the column otherwise.
    func comparable(_ column: Int) -> String {
        Self.comparable(columns[column], in: quotedName)
    }

    static func comparable(_ column: ColumnSchema, in quotedTable: String) -> String {
        let expression = quotedTable + "." + quotedIdentifier(column.name)
        return column.isOrderable ? expression : "(\(expression))::text"
    }

    /// The column names, for messages that list what is allowed.
    var columnNames: String {
        let names = schema.columns.map(\.name)
        let shown = names.prefix(40).joined(separator: ", ")
        return names.count > 40 ? shown + ", …" : shown
    }
}

/// An app's choice of cell for a database row: a `DataCellProvider` as in any list, with the
/// row's values to configure the cell from.
public typealias DatabaseCellProvider = @Sendable (DatabaseRow, IndexPath) -> DataCellProvider

/// Every list of a mounted database, by table name: how a foreign key finds the list it links to.
final class DatabaseLists: Sendable {
    /// The lists, in the order they were mounted.
    let ordered: [TableList]
    let byName: [String: TableList]
    /// Tables left out for the actor these lists are for (``hiding(_:)``): no link, label, count or
    /// reference names them.
    let hidden: Set<String>
    /// For each table, by column: where a foreign key's value links (`/regions/`, the value to
    /// follow), or nil for a column that links nowhere.
    let linkBases: [String: [String?]]
    /// For each table, the lists whose single-column foreign keys reference its rows (``IncomingReference``).
    let incoming: [String: [IncomingReference]]
    /// Each table's schema, as the disclosure above its list writes it (``SchemaDescription``).
    let schemaDisclosures: [String: String]

    init(_ lists: [TableList], hiding hidden: Set<String> = []) {
        let lists = lists.filter { !hidden.contains($0.schema.name) }
        let byName = Dictionary(lists.map { ($0.schema.name, $0) }, uniquingKeysWith: { first, _ in first })
        ordered = lists
        self.byName = byName
        self.hidden = hidden
        var incoming: [String: [IncomingReference]] = [:]
        for list in lists {
            for key in list.schema.foreignKeys where key.columns.count == 1 && key.referencedColumns.count == 1 {
                guard let target = byName[key.referencedTable], target.hasKey,
                    let column = list.columnIndex(named: key.columns[0]), !list.isSecret(column),
                    let referenced = target.columnIndex(named: key.referencedColumns[0])
                else { continue }
                incoming[target.schema.name, default: []].append(IncomingReference(list: list, column: column, referencedColumn: referenced))
            }
        }
        self.incoming = incoming
        // Written once for the lists' lifetime (their schema's): a page copies it, escaped already.
        var disclosures: [String: String] = [:]
        for list in lists {
            var html = HTMLWriter()
            SchemaDescription.writeDisclosure(of: list, in: byName, hiding: hidden, into: &html)
            disclosures[list.schema.name] = html.string
        }
        schemaDisclosures = disclosures
        linkBases = byName.mapValues { list in
            list.columns.indices.map { column in
                guard let table = list.links[column], let target = byName[table], target.hasKey else { return nil }
                return ListRoute.percentEncodedPath(target.path) + "/"
            }
        }
    }

    /// These lists as an actor who may not view the tables `names` sees them: without those
    /// tables, their links, labels and incoming references.
    func hiding(_ names: Set<String>) -> DatabaseLists {
        names.isEmpty ? self : DatabaseLists(ordered, hiding: names.union(hidden))
    }
}
