import ByteWriters
import Cellar
import MicroHTTP

extension App {
    /// Where a database's SQL page is, under the lists' prefix: `/-/query`, its JSON at
    /// `/-/query.json` and its CSV at `/-/query.csv`. No table takes these paths (``listPaths(for:)``).
    static func queryPath(under prefix: String) -> String { prefix + "/-/query" }

    /// Where a canned query's list is: `/-/queries/{name}`.
    static func cannedQueryPath(_ name: String, under prefix: String) -> String { prefix + "/-/queries/" + name }

    /// Names a canned query's parameter may not take: the query names lists keep for themselves,
    /// and those the explorer's controls send (a parameter would read the control's value).
    static let reservedParameterNames: Set<String> = ListContext.reservedNames.union([
        "facet", "facet_size", "filter_column", "filter_op", "filter_value", "editing", "sql",
    ])

    /// Mounts a query list at `path` with the connections `runner` opened: the list (GET, or a form
    /// POST for a statement too long for a URL; its JSON and CSV likewise: ``QueryListController``
    /// answers the CSV, as ``CSVResponding``).
    func mountQuery(
        _ database: Database, runner: QueryRunner, at path: String, source: QuerySource = .written, title: String = "Run SQL",
        summary: String = "Run one read-only SQL statement and see its rows"
    ) {
        let defaultLimit = min(database.options.defaultLimit, QueryRunner.rowCap)
        list(
            path, title: title, summary: summary,
            paging: .keyset(defaultLimit: defaultLimit, maxLimit: min(database.options.maxLimit, QueryRunner.rowCap)), hasDetail: false,
            acceptsFormPosts: true
        ) { context in
            try QueryListController(runner: runner, source: source, title: title, context: context, defaultLimit: defaultLimit)
        }
    }

    /// A canned query, checked, ready to mount.
    struct CheckedQuery {
        let query: DatabaseConfiguration.CannedQuery
        let parameters: [String]
    }

    /// Each canned query of the configuration, checked on a query connection: one statement that
    /// reads, its parameters named (`:name`), none with a reserved name.
    ///
    /// - Throws: ``ConfigurationError`` naming the query, for a statement SQLite refuses or a parameter that cannot be.
    static func checkedCannedQueries(_ database: Database, runner: QueryRunner, configuration: DatabaseConfiguration) throws -> [CheckedQuery] {
        try configuration.queries.map { query in
            let key = "queries.\(query.name)"
            var names: [String?]
            if case .postgres = database.engine {
                // PostgreSQL checks the statement when it first runs it: here, its parameters.
                guard let named = try? PostgresNamedParameters(query.sql) else {
                    throw configuration.error(key + ".sql", "name every parameter (:name), so the form can ask for it; $1 cannot be")
                }
                names = named.names.map { ":" + $0 }
            } else {
                do {
                    names = try runner.parameterNames(of: query.sql)
                } catch let error as DatabaseError {
                    throw configuration.error(key + ".sql", "SQLite cannot run it here: \(error.message)")
                }
            }
            var parameters: [String] = []
            for name in names {
                guard let name, name.count > 1 else {
                    throw configuration.error(key + ".sql", "name every parameter (:name), so the form can ask for it; ? cannot be")
                }
                let bare = String(name.dropFirst())
                if Self.reservedParameterNames.contains(bare) {
                    throw configuration.error(
                        key + ".sql",
                        "the parameter \(name) takes a name lists keep for themselves; rename it (not \(Self.reservedParameterNames.sorted().joined(separator: ", ")))"
                    )
                }
                parameters.append(bare)
            }
            return CheckedQuery(query: query, parameters: parameters)
        }
    }

    /// Mounts each canned query at `/-/queries/{name}`.
    func mountCannedQueries(_ queries: [CheckedQuery], database: Database, runner: QueryRunner, prefix: String) {
        for checked in queries {
            let query = checked.query
            mountQuery(
                database, runner: runner, at: Self.cannedQueryPath(query.name, under: prefix),
                source: .canned(sql: query.sql, parameters: checked.parameters), title: query.title ?? query.name,
                summary: query.description ?? "")
        }
    }

    /// The statement's rows as CSV (as a table's CSV writes them), from `offset` on, at most
    /// ``QueryRunner/rowCap`` of them; when it has more, a `Link` header names the next part.
    static func queryCSV(_ request: Request, runner: QueryRunner, source: QuerySource, path: String) throws -> Response {
        let sql: String
        var parameters: [String: String] = [:]
        var query: [(String, String)] = []
        switch source {
        case .written:
            sql = request.query["sql"] ?? ""
            guard sql.contains(where: { !$0.isWhitespace }) else {
                throw HTTPError.badRequest("Name the statement to run: /-/query.csv?sql=SELECT…")
            }
            query = [("sql", sql)]
        case .canned(let statement, let names):
            sql = statement
            for name in names {
                guard let value = request.query[name] else { throw HTTPError.badRequest("Give the query's parameter \(name) a value (\(name)=…).") }
                parameters[name] = value
                query.append((name, value))
            }
        }
        let offset =
            try request.query["offset"].map { text throws(HTTPError) in
                guard let offset = Int(text), offset >= 0 else {
                    throw HTTPError.badRequest("offset must be a whole number of 0 or more (got “\(text.prefix(40))”).")
                }
                return offset
            } ?? 0
        let page = try runner.run(sql, parameters: parameters, offset: offset, limit: QueryRunner.rowCap, for: request)
        var body: [UInt8] = []
        CSVStream.appendHeader(page.columns.map(\.name), to: &body)
        CSVStream.appendRows(page.rows, columns: page.columns.count, to: &body)
        var headers: HTTPHeaders = ["Content-Type": "text/csv; charset=utf-8", "Cache-Control": "no-cache"]
        if page.hasMore {
            query.append(("offset", String(page.firstRow + page.rows.count)))
            let encoded = query.map { name, value in
                PercentEncoding.encoded(name) { PercentEncoding.isUnreserved($0) } + "="
                    + PercentEncoding.encoded(value) { PercentEncoding.isUnreserved($0) }
            }
            let next = ListRoute.percentEncodedPath(path) + ".csv?" + encoded.joined(separator: "&")
            // A statement near the size limit would make a head too large to send.
            if next.utf8.count <= 8 * 1024 { headers.add(name: "Link", value: "<\(next)>; rel=\"next\"") }
        }
        return Response(status: .ok, headers: headers, body: .bytes(body))
    }
}
