import ByteWriters
import Cellar
import MicroHTTP
import TableKit

/// What a request asks of a table, checked against its schema and turned into SQL: filters,
/// search and order from the query string, as bound values and quoted identifiers. No SQL text
/// comes from the URL; a name that is not a column or a value that does not parse is a 400.
struct TableQuery {
    /// One term of the order: a column of the selection, ascending or descending. NULL is the
    /// smallest value (SQLite's own order, which PostgreSQL is told: ``SQLDialect/orderTerm(_:ascending:notNull:)``):
    /// first ascending, last descending.
    struct OrderTerm: Equatable {
        /// Its place among the selected columns (where a cursor finds its value).
        var column: Int
        /// The column as SQL where it is compared (``TableList/comparable(_:)``).
        var expression: String
        /// The quoted column itself, which the cursor's ``TableQuery/orderSignature`` hashes: the same
        /// for both engines, whatever `expression` compares.
        var name: String
        var ascending: Bool
        /// Whether the column cannot hold NULL, so keyset conditions need not treat NULL apart.
        var notNull: Bool
    }

    let list: TableList
    /// `WHERE` conditions, ANDed, with their values in order.
    private(set) var conditions: [String] = []
    private(set) var bindings: [DatabaseValue] = []
    private(set) var order: [OrderTerm] = []
    /// The filters and the search (`q`) as the request names them, which the cursor's signature holds.
    private var filterItems: [(name: String, value: String)] = []

    /// The filter operators a parameter may end with.
    static let operators = ["exact", "not", "gt", "gte", "lt", "lte", "contains", "icontains", "startswith", "isnull"]

    /// The most filters a request may hold: SQLite refuses a `WHERE` nested deeper than 1,000
    /// levels, and each ANDed condition is one.
    static let maximumFilters = 100

    init(list: TableList, context: ListContext) throws(HTTPError) {
        self.list = list
        let filters = context.filters
        guard filters.count <= Self.maximumFilters else {
            throw HTTPError.badRequest("Too many filters (\(filters.count)): a list takes at most \(Self.maximumFilters).")
        }
        for filter in filters { try addFilter(name: filter.name, value: filter.value) }
        if let term = context.searchTerm { try addSearch(term) }
        filterItems = filters + (context.searchTerm.map { [(name: "q", value: $0)] } ?? [])
        try setOrder(context.sort)
    }

    /// A hash of the order's terms, the filters and the search, which a cursor carries so that it
    /// is read only in the list it was made for: the position it holds counts the rows those keep.
    var orderSignature: UInt64 {
        var hash = StableHash()
        for term in order {
            hash.combine(term.name)
            hash.combine(term.ascending ? "asc" : "desc")
        }
        // A list neither filtered nor searched signs its order alone, as cursors always did.
        guard !filterItems.isEmpty else { return hash.value }
        // The filters and search as asked for, not their SQL: the same on every engine.
        for item in filterItems {
            hash.combine(item.name)
            hash.combine(item.value)
        }
        return hash.value
    }

    // MARK: Filters

    private mutating func addFilter(name: String, value: String) throws(HTTPError) {
        var columnName = name
        var operation = "exact"
        if list.columnIndex(named: name) == nil, let separator = name.ranges(of: "__").last {
            columnName = String(name[..<separator.lowerBound])
            operation = String(name[separator.upperBound...])
        }
        guard let column = list.columnIndex(named: columnName) else {
            throw HTTPError.badRequest(
                "Unknown parameter “\(Self.shown(name))”. \(list.title) filters by its columns (name=value, or name__op=value with op one of \(Self.operators.joined(separator: ", "))): \(list.columnNames); and takes limit, offset, cursor, sort, q."
            )
        }
        guard Self.operators.contains(operation) else {
            throw HTTPError.badRequest(
                "Unknown filter “__\(Self.shown(operation))” on \(columnName): use one of \(Self.operators.map { "__" + $0 }.joined(separator: ", "))."
            )
        }
        if list.isSecret(column) { throw TableList.secretRefusal(columnName, for: "filter rows") }
        let expression = list.quotedName + "." + quotedIdentifier(columnName)
        let schema = list.columns[column]
        switch operation {
        case "isnull":
            switch value {
            case "1", "true": conditions.append("\(expression) IS NULL")
            case "0", "false": conditions.append("\(expression) IS NOT NULL")
            default: throw HTTPError.badRequest("\(columnName)__isnull takes 1 or 0 (got “\(Self.shown(value))”).")
            }
        case "contains":
            conditions.append(list.dialect.contains(expression))
            bindings.append(.text(value))
        case "icontains":
            conditions.append(list.dialect.containsIgnoringCase(expression))
            bindings.append(.text(value))
        case "startswith":
            conditions.append(list.dialect.startsWith(expression))
            bindings.append(.text(value))
        default:
            let comparison = ["exact": "=", "not": "<>", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="][operation] ?? "="
            conditions.append("\(list.comparable(column)) \(comparison) ?")
            bindings.append(try Self.parse(value, for: schema))
        }
    }

    /// A filter's value read by the column's declared type. A date's is its text (`2024-05-01`),
    /// as dates are kept and compared, though SQLite gives `DATE` numeric affinity.
    static func parse(_ value: String, for column: ColumnSchema) throws(HTTPError) -> DatabaseValue {
        if FilterOperator.Kind(column) == .date, Double(value) == nil { return .text(value) }
        switch column.affinity {
        case .integer:
            if let integer = Int64(value) { return .integer(integer) }
            throw HTTPError.badRequest("\(column.name) holds integers: “\(shown(value))” is not one.")
        case .real:
            if let real = Double(value), real.isFinite { return .real(real) }
            throw HTTPError.badRequest("\(column.name) holds numbers: “\(shown(value))” is not one.")
        case .numeric:
            if let integer = Int64(value) { return .integer(integer) }
            if column.holdsExactDecimals {
                // PostgreSQL's `numeric` takes the decimal's text: every digit kept.
                if DecimalText.isDecimal(value) { return .text(value) }
            } else if let real = Double(value), real.isFinite {
                return .real(real)
            }
            throw HTTPError.badRequest("\(column.name) holds numbers: “\(shown(value))” is not one.")
        case .text, .blob:
            return .text(value)
        }
    }

    // MARK: Search

    /// The most different words a search may hold: PostgreSQL evaluates a query of tens of
    /// thousands of words recursively, past its stack limit (an error, not an answer).
    static let maximumSearchWords = 1_000

    private mutating func addSearch(_ term: String) throws(HTTPError) {
        guard let search = list.search else {
            throw HTTPError.badRequest(
                "\(list.title) has no full-text index: q cannot be used here. Filter a column instead (column__contains=words).")
        }
        // A NUL separates words too: FTS5 ends a quoted string at one ("unterminated string"), and
        // PostgreSQL's text cannot hold one. A word given twice is searched for once.
        var seen = Set<Substring>()
        let words = term.split { $0.isWhitespace || $0 == "\u{0}" }.filter { seen.insert($0).inserted }.map(String.init)
        guard !words.isEmpty else { return }
        guard words.count <= Self.maximumSearchWords else {
            throw HTTPError.badRequest("A search takes at most \(Self.maximumSearchWords) different words (this one has \(words.count)).")
        }
        let (condition, values) = search.condition(words: words, table: list.quotedName)
        conditions.append(condition)
        bindings += values
    }

    // MARK: Order

    private mutating func setOrder(_ requested: [SortKey]) throws(HTTPError) {
        var keys = requested.isEmpty ? list.defaultSort : requested
        // Grouped rows come in their sections' order first, so each section's rows are together.
        if let section = list.sectionColumn, keys.first?.name != list.columns[section].name {
            keys.insert(SortKey(list.columns[section].name, ascending: true), at: 0)
        }
        var terms: [OrderTerm] = []
        for key in keys {
            guard let column = list.columnIndex(named: key.name) else {
                throw HTTPError.badRequest(
                    "Cannot sort by “\(Self.shown(key.name))”: \(list.title) sorts by its columns (sort=name ascending, sort=-name descending): \(list.columnNames)."
                )
            }
            if list.isSecret(column) { throw TableList.secretRefusal(key.name, for: "sort rows") }
            guard !terms.contains(where: { $0.column == column }) else { continue }
            terms.append(
                OrderTerm(
                    column: column, expression: list.comparable(column), name: list.quotedName + "." + quotedIdentifier(key.name),
                    ascending: key.ascending,
                    notNull: list.columns[column].notNull))
        }
        // Ties are broken by the key, so every row has one place and keyset pages meet exactly.
        for (index, column) in list.keyColumns.enumerated() where !terms.contains(where: { $0.column == column }) {
            terms.append(
                OrderTerm(
                    column: column, expression: list.keyExpressions[index], name: list.keyExpressions[index], ascending: true,
                    notNull: !list.keyIsNullable[index]))
        }
        // Rows whose key is NULL tie on it: the rowid orders them.
        if let rowID = list.rowIDTieBreak {
            terms.append(OrderTerm(column: rowID.column, expression: rowID.expression, name: rowID.expression, ascending: true, notNull: true))
        }
        order = terms
    }

    /// `ORDER BY …` for the order, or nothing for a view asked for no order.
    private var orderClause: String {
        guard !order.isEmpty else { return "" }
        return " ORDER BY "
            + order.map { list.dialect.orderTerm($0.expression, ascending: $0.ascending, notNull: $0.notNull) }.joined(separator: ", ")
    }

    private func whereClause(_ extra: [String]) -> String {
        let all = conditions + extra
        return all.isEmpty ? "" : " WHERE " + all.joined(separator: " AND ")
    }

    // MARK: SQL

    /// The SELECT for a page: after the cursor's row when there is one (keyset), else from `offset`.
    /// It asks for one row more than `limit`, to learn whether a next page exists.
    func pageSQL(after cursor: ListCursor?, offset: Int, limit: Int) -> (sql: String, bindings: [DatabaseValue]) {
        var extra: [String] = []
        var values = bindings
        if let cursor {
            let (condition, conditionValues) = keysetCondition(after: cursor.values)
            extra.append(condition)
            values += conditionValues
        }
        var sql = "SELECT \(list.selection) FROM \(list.quotedName)\(whereClause(extra))\(orderClause) LIMIT ?"
        values.append(.integer(Int64(limit) + 1))
        if cursor == nil && offset > 0 {
            sql += " OFFSET ?"
            values.append(.integer(Int64(offset)))
        }
        return (sql, values)
    }

    /// The rows after `last` in the order: for each term, the rows equal on the terms before it
    /// and after it on this one. NULL is the smallest value, so "after NULL" ascending is every
    /// non-NULL value, and descending the NULLs come after every value.
    func keysetCondition(after last: [DatabaseValue]) -> (String, [DatabaseValue]) {
        var alternatives: [String] = []
        var values: [DatabaseValue] = []
        for (index, term) in order.enumerated() {
            var parts: [String] = []
            var partValues: [DatabaseValue] = []
            for (previous, value) in zip(order[..<index], last) {
                parts.append(list.dialect.isSame(previous.expression))
                partValues.append(value)
            }
            let value = last[index]
            switch (term.ascending, value) {
            case (true, .null):
                parts.append("\(term.expression) IS NOT NULL")
            case (true, _):
                parts.append("\(term.expression) > ?")
                partValues.append(value)
            case (false, .null):
                continue  // nothing sorts after NULL descending
            case (false, _):
                parts.append(term.notNull ? "\(term.expression) < ?" : "(\(term.expression) < ? OR \(term.expression) IS NULL)")
                partValues.append(value)
            }
            alternatives.append("(" + parts.joined(separator: " AND ") + ")")
            values += partValues
        }
        guard !alternatives.isEmpty else { return (list.dialect.noRows, []) }
        var condition = "(" + alternatives.joined(separator: " OR ") + ")"
        // The first term's bound, stated alone too, lets SQLite seek an index on it instead of
        // testing the alternatives row by row from the start.
        if let first = order.first, let value = last.first, value != .null {
            if first.ascending {
                condition = "\(first.expression) >= ? AND " + condition
                values.insert(value, at: 0)
            } else if first.notNull {
                condition = "\(first.expression) <= ? AND " + condition
                values.insert(value, at: 0)
            }
        }
        return (condition, values)
    }

    /// The SELECT that counts the rows the filters keep, stopping at `cap` + 1.
    func countSQL(cap: Int) -> (sql: String, bindings: [DatabaseValue]) {
        ("SELECT count(*) FROM (SELECT 1 FROM \(list.quotedName)\(whereClause([])) LIMIT ?) AS counted", bindings + [.integer(Int64(cap) + 1)])
    }

    /// The SELECT that counts the rows the filters keep whose `column` holds a value (one section's
    /// rows), stopping at `cap` + 1.
    func countSQL(cap: Int, column: Int, value: DatabaseValue) -> (sql: String, bindings: [DatabaseValue]) {
        let condition = list.dialect.isSame(list.comparable(column))
        return (
            "SELECT count(*) FROM (SELECT 1 FROM \(list.quotedName)\(whereClause([condition])) LIMIT ?) AS counted",
            bindings + [value, .integer(Int64(cap) + 1)]
        )
    }

    /// The SELECT of a facet: the column's values among the rows the filters and search keep, and
    /// how many rows hold each, the most common first (ties in the column's own order, NULL as its
    /// smallest value); one more than `size`, to learn whether there are more.
    func facetSQL(column: Int, size: Int) -> (sql: String, bindings: [DatabaseValue]) {
        let expression = list.comparable(column)
        let tieBreak = list.dialect.orderTerm("1", ascending: true, notNull: list.columns[column].notNull)
        return (
            "SELECT \(expression), count(*) FROM \(list.quotedName)\(whereClause([])) GROUP BY \(expression) ORDER BY 2 DESC, \(tieBreak) LIMIT ?",
            bindings + [.integer(Int64(size) + 1)]
        )
    }

    /// A value shown in a message: at most 80 characters.
    static func shown(_ value: String) -> String {
        value.count > 80 ? String(value.prefix(80)) + "…" : value
    }
}
