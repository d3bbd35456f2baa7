import Cellar
import FoundationEssentials
import MicroHTTP

/// One facet of a list: a column's most common values and how many rows hold each, among the rows
/// the list's filters and search keep — as Datasette counts them, once per version of the data.
struct Facet: Sendable {
    struct Value: Sendable {
        var value: DatabaseValue
        var count: Int
        /// The label of the row a foreign key's value references.
        var label: String?
    }

    /// The column, in the list's columns.
    let column: Int
    /// The values, the most common first (ties in the column's order), at most the facet's size.
    var values: [Value] = []
    /// Whether the column holds more values than were counted.
    var truncated = false
    /// Whether counting took longer than the request's facet budget; then there are no values.
    var timedOut = false
}

/// The facets a request asks for (`facet=column`, repeatable, after the table's configured ones)
/// and how many values each shows (`facet_size`).
struct FacetRequest {
    /// The most facets one request may count.
    static let maximumFacets = 5
    static let defaultSize = 30
    static let maximumSize = 100

    let columns: [Int]
    let size: Int

    init(list: TableList, context: ListContext) throws(HTTPError) {
        var columns: [Int] = list.facetColumns
        for name in context.query.values(for: "facet") where !name.isEmpty {
            guard let column = list.columnIndex(named: name) else {
                throw HTTPError.badRequest("Cannot facet by “\(TableQuery.shown(name))”: \(list.title) has the columns \(list.columnNames).")
            }
            if list.isSecret(column) { throw TableList.secretRefusal(name, for: "count rows by (a facet)") }
            if !columns.contains(column) { columns.append(column) }
        }
        guard columns.count <= Self.maximumFacets else {
            throw HTTPError.badRequest("A page shows at most \(Self.maximumFacets) facets (this one asks for \(columns.count)).")
        }
        self.columns = context.rowIdentifier == nil ? columns : []
        if let text = context.query["facet_size"] {
            guard let size = Int(text), (1...Self.maximumSize).contains(size) else {
                throw HTTPError.badRequest("facet_size takes a whole number from 1 to \(Self.maximumSize) (got “\(TableQuery.shown(text))”).")
            }
            self.size = size
        } else {
            size = Self.defaultSize
        }
    }
}

extension DatabaseListController {
    /// Counts each facet the request asks for, from the cache when the data has not changed since.
    /// All of them share one budget, the query time limit: a facet that cannot finish within what
    /// is left of it is marked as timed out (and remembered so for this version of the data), and
    /// the page still answers.
    func countFacets(_ request: FacetRequest, version: String?) throws -> [Facet] {
        guard !request.columns.isEmpty else { return [] }
        let clock = ContinuousClock()
        let start = clock.now
        let budget = database.options.timeLimit
        // Without the cache (`--no-facet-cache`), the version is still read, but neither looked up nor kept.
        let caches = database.options.cachesFacets
        var facets: [Facet] = []
        for column in request.columns {
            let (sql, bindings) = query.facetSQL(column: column, size: request.size)
            let key = VersionedCache<Facet>.Key(sql: sql, bindings: bindings)
            if caches, let version, let known = database.facets.value(for: key, version: version) {
                facets.append(known)
                continue
            }
            let elapsed = start.duration(to: clock.now)
            let left = budget - Double(elapsed.components.seconds) - Double(elapsed.components.attoseconds) / 1e18
            var facet = Facet(column: column)
            guard left > 0.005 else {
                facet.timedOut = true
                facets.append(facet)
                continue
            }
            var seenVersion = version
            do {
                facet = try database.read(timeLimit: left) { connection in
                    seenVersion = try version ?? connection.snapshotVersion()
                    return try count(column: column, sql: sql, bindings, size: request.size, connection)
                }
            } catch let error as HTTPError where error.status == .serviceUnavailable {
                facet.timedOut = true
            }
            if caches, let seenVersion { database.facets.store(facet, for: key, version: seenVersion) }
            facets.append(facet)
        }
        return facets
    }

    private func count(column: Int, sql: String, _ bindings: [DatabaseValue], size: Int, _ connection: any DatabaseReader) throws -> Facet {
        var rows = FetchedRows(columnCount: 2, expectedRows: size + 1)
        try connection.appendRows(of: sql, bindings, to: &rows)
        var facet = Facet(column: column)
        facet.truncated = rows.count > size
        var labels: [DatabaseValue: String] = [:]
        if let table = list.links[column], let target = lists.byName[table], let labelQuery = target.labelQuery {
            let keys = (0..<min(rows.count, size)).map { rows.databaseValue(row: $0, column: 0) }.filter { $0 != .null }
            if !keys.isEmpty { labels = try connection.labels(labelQuery, [connection.dialect.keyList(keys)]) }
        }
        for row in 0..<min(rows.count, size) {
            let value = rows.databaseValue(row: row, column: 0)
            guard case .integer(let count) = rows.databaseValue(row: row, column: 1) else { continue }
            facet.values.append(Facet.Value(value: value, count: Int(count), label: labels[value]))
        }
        return facet
    }

    /// Columns worth a facet, judged on the table's first 1,000 rows within a small budget: those
    /// with from 2 to 30 different values, fewer than the rows looked at. Found once per version of
    /// the data; none when the look takes too long.
    func suggestFacets(excluding shown: [Int], version: String?) -> [Int] {
        guard let suggestion = list.facetSuggestion else { return [] }
        let key = VersionedCache<[Int]>.Key(sql: list.quotedName, bindings: [])
        let caches = database.options.cachesFacets
        if caches, let version, let known = database.suggestedFacets.value(for: key, version: version) {
            return known.filter { !shown.contains($0) }
        }
        var seenVersion = version
        let columns: [Int] =
            (try? database.read(timeLimit: 0.05) { connection -> [Int] in
                seenVersion = try version ?? connection.snapshotVersion()
                var rows = FetchedRows(columnCount: suggestion.candidates.count + 1, expectedRows: 1)
                try connection.appendRows(of: suggestion.sql, [], to: &rows)
                guard rows.count == 1, case .integer(let sampled) = rows.databaseValue(row: 0, column: 0), sampled > 1 else { return [] }
                return suggestion.candidates.indices.compactMap { index -> Int? in
                    guard case .integer(let distinct) = rows.databaseValue(row: 0, column: index + 1) else { return nil }
                    return distinct >= 2 && distinct <= 30 && distinct < sampled ? suggestion.candidates[index] : nil
                }
            }) ?? []
        if caches, let seenVersion { database.suggestedFacets.store(columns, for: key, version: seenVersion) }
        return columns.filter { !shown.contains($0) }
    }
}
