import ByteWriters
import Cellar
import FoundationEssentials
import MicroHTTP
import TableKit

extension App {
    /// Mounts every table and view of `database` as a list, and the index of lists at `/`.
    ///
    /// A table is at `/{name}` (its name percent-encoded in links), its JSON at `/{name}.json`,
    /// every row its query selects as CSV at `/{name}.csv`, a row's detail at `/{name}/{key}`.
    /// A name that would shadow one of the server's own paths (`static`, `healthz`, `metrics`,
    /// `readyz`, `-`, `index.json`, or `index`, whose JSON would be the index's) or another list's
    /// JSON is at `/-/{name}`; a name with a `/`, or starting with `:` or `*`, or `.` or `..` (which
    /// links lose to URL normalisation), is at `/-/x{hex of its UTF-8}`. The index links every list
    /// where it is.
    ///
    /// - Parameters:
    ///   - prefix: a path the lists go under (`/shop` → `/shop/items`); with one, no index is
    ///     mounted (the app's own index, if any, lists them).
    ///   - configuration: titles, shown columns, labels, default order, page sizes, sections and
    ///     cell rules per table; checked against the schema and the registered cells.
    /// - Returns: each table's name and the path it was mounted at.
    /// - Throws: ``ConfigurationError`` for a configuration that names what is not there.
    @discardableResult
    public func mount(
        _ database: Database, at prefix: String = "", configuration: DatabaseConfiguration = DatabaseConfiguration(),
        indexTitle: String = "Tables"
    ) throws -> [(table: String, path: String)] {
        try registerDatabaseCells()
        let tables = database.schema.tables
        let names = Set(tables.map(\.name))
        let paths = Self.listPaths(for: tables.map(\.name))
        for name in configuration.tables.keys where !names.contains(name) {
            throw configuration.error(
                "tables." + name, "the database has no table or view “\(name)”; it has \(tables.map(\.name).joined(separator: ", "))")
        }
        let catalog = try DatabaseCatalog(
            database: database,
            mounted: tables.map { table in
                DatabaseCatalog.Mounted(
                    name: table.name, path: prefix + (paths[table.name] ?? Self.hexPath(for: table.name)), settings: configuration.tables[table.name])
            }, file: configuration)
        let made = catalog.initialLists
        for list in made {
            if let rules = list.cellRules {
                for identifier in Set(rules.when.values).union([rules.defaultCell]) where !registry.isRegistered(identifier) {
                    throw configuration.error(
                        "tables.\(list.schema.name).cells",
                        "no cell is registered as “\(identifier)”; the cells are \(registry.registeredIdentifiers.sorted().joined(separator: ", ")) (prototypes come from Public/prototypes/ or --templates)"
                    )
                }
            }
            try Self.checkSearchConfiguration(
                of: list, configured: configuration.tables[list.schema.name]?.search, in: database, file: configuration)
        }
        // Every summary (a count), and the SQL page's connections, before the first list is mounted:
        // a database that goes away meanwhile leaves the app as it was, and a deferred mount can be tried again.
        let summaries = try made.map { list in try (list.description ?? Self.summary(of: list, in: database)) + " · " + Self.columnNames(of: list) }
        let queries = try queryRunner(for: database, configuration: configuration)
        let canned = try queries.map { runner in try Self.checkedCannedQueries(database, runner: runner, configuration: configuration) } ?? []
        var mounted: [(table: String, path: String)] = []
        for (list, summary) in zip(made, summaries) {
            mountList(list, catalog: catalog, summary: summary)
            mounted.append((list.schema.name, list.path))
        }
        if let queries {
            if databaseAllowsSQL, configuration.allowsSQL { mountQuery(database, runner: queries, at: Self.queryPath(under: prefix)) }
            mountCannedQueries(canned, database: database, runner: queries, prefix: prefix)
        }
        if prefix.isEmpty { indexList(at: "/", title: indexTitle) }
        monitorChanges(of: database, lists: made)
        return mounted
    }

    /// Mounts one table or view of `database` as a list at `path`, its rows in the cells `cells`
    /// chooses — class cells the app registered, or prototypes — as any list's provider does:
    ///
    /// ```swift
    /// try app.mount(database, table: "books", at: "/books", title: "Books") { row, indexPath in
    ///     DataCellProvider(for: indexPath, cell: BookCell.self, data: Book(title: row.text("title") ?? "", year: row["year"]))
    /// }
    /// ```
    ///
    /// Its JSON, CSV and detail routes are mounted with it; its paging, filters, search and
    /// validators are a database list's. A foreign key links only to tables mounted in the same call.
    @discardableResult
    public func mount(
        _ database: Database, table name: String, at path: String, title: String? = nil,
        configuration: DatabaseConfiguration.Table? = nil, cells: DatabaseCellProvider? = nil
    ) throws -> String {
        guard let table = database.schema.table(named: name) else {
            throw DatabaseOpenError(
                path: database.path,
                underlying: DatabaseError(extendedResultCode: 1, message: "no table or view named “\(name)”"))
        }
        try registerDatabaseCells()
        var settings = configuration ?? DatabaseConfiguration.Table()
        if let title { settings.title = title }
        let catalog = try DatabaseCatalog(
            database: database, mounted: [DatabaseCatalog.Mounted(name: table.name, path: path, settings: settings)], file: DatabaseConfiguration(),
            cells: cells, linkTargets: [table.name])
        guard let list = catalog.initialLists.first else { return path }
        try Self.checkSearchConfiguration(of: list, configured: settings.search, in: database, file: DatabaseConfiguration())
        mountList(list, catalog: catalog)
        monitorChanges(of: database, lists: [list])
        return path
    }

    /// The connections `/-/query` and the canned queries run statements on (``QueryRunner``), or nil
    /// when there are none to run: the SQL page off (`--no-sql`, ``App/databaseAllowsSQL``, or
    /// `sql: false` in the configuration) and no canned query. Canned queries stay with the SQL page
    /// off: they run only what the configuration says.
    private func queryRunner(for database: Database, configuration: DatabaseConfiguration) throws -> QueryRunner? {
        guard databaseAllowsSQL && configuration.allowsSQL || !configuration.queries.isEmpty else { return nil }
        switch database.engine {
        case .postgres(let pool):
            if let query = configuration.queries.first {
                throw configuration.error("queries.\(query.name)", "canned queries are served from SQLite databases only, for now")
            }
            let reach = try QueryRunner.reachBeyondReading(in: database)
            guard reach.isEmpty else {
                logger.warning(
                    "/-/query is off: the serving role can do more than read through it; serve with a role that may only SELECT, or --no-sql",
                    metadata: ["database": "\(database.displayName)", "role_may": "\(reach.joined(separator: "; "))"])
                return nil
            }
            return QueryRunner(postgres: pool.info, timeLimit: database.options.timeLimit)
        case .sqlite:
            do {
                return try QueryRunner(path: database.path, timeLimit: database.options.timeLimit)
            } catch {
                throw DatabaseOpenError(path: database.path, underlying: error)
            }
        }
    }

    /// The cells every database list may dequeue, registered once.
    private func registerDatabaseCells() throws {
        if !registry.isRegistered(DatabaseRowCell.reuseIdentifier) { try register(DatabaseRowCell.self) }
        if !registry.isRegistered(DatabaseColumnsCell.reuseIdentifier) { try register(DatabaseColumnsCell.self) }
    }

    /// A text-search configuration the YAML names is one PostgreSQL has: asked once here, rather
    /// than failing every search.
    private static func checkSearchConfiguration(
        of list: TableList, configured: DatabaseConfiguration.Search?, in database: Database, file: DatabaseConfiguration
    ) throws {
        guard let name = configured?.configuration, case .textSearch = list.search else { return }
        do {
            _ = try database.read { connection in try connection.integer("SELECT numnode(plainto_tsquery(?::regconfig, 'a'))", [.text(name)]) }
        } catch let error as PostgresError where error.sqlState == "42704" {
            throw file.error(
                "tables.\(list.schema.name).search.configuration",
                "PostgreSQL has no text-search configuration “\(name)” (see \\dF in psql, or pg_ts_config)")
        }
    }

    /// Mounts a table's list (its CSV answered by its controller, ``CSVResponding``) and its schema (`/{table}/-/schema`, and `.json`): each
    /// request asks `catalog` for the list as the schema is now. The schema's path is two segments
    /// below the table, a row's (`/{table}/{key}`) one, so no row is shadowed: a row keyed `-` is at
    /// `/{table}/-`, and a key holding `/` is sent as `%2F`, within its one segment.
    private func mountList(_ list: TableList, catalog: DatabaseCatalog, summary: String? = nil) {
        let database = catalog.database
        let name = list.schema.name
        self.list(
            list.path, title: list.title, summary: summary ?? list.description ?? "",
            paging: .keyset(defaultLimit: list.pageSize ?? database.options.defaultLimit, maxLimit: database.options.maxLimit),
            hasDetail: list.hasKey
        ) { context in
            let (list, lists, version) = try catalog.list(named: name)
            return list.isSearchable
                ? try SearchableDatabaseListController(list: list, lists: lists, database: database, context: context, version: version)
                : try DatabaseListController(list: list, lists: lists, database: database, context: context, version: version)
        }
        page(list.path + "/-/schema", title: "\(list.title): schema") { _, page in
            let (list, lists, _) = try catalog.list(named: name)
            SchemaDescription.writePage(of: list, lists: lists.byName, into: &page.html)
            return .ok
        }
        route(.get, list.path + "/-/schema.json") { _ in
            let (list, lists, _) = try catalog.list(named: name)
            return Response.json(SchemaDescription.json(of: list, lists: lists.byName))
        }
    }

    /// Has the watchers of these lists told when another process commits to `database`: SQLite's
    /// `data_version` polled (``DatabaseChangeMonitor``), PostgreSQL's change log followed
    /// (``PostgresChangeFeed``).
    private func monitorChanges(of database: Database, lists: [TableList]) {
        switch database.engine {
        case .sqlite:
            DatabaseChangeMonitor.watch(database, paths: Set(lists.map(\.path)), watchers: watchers)
        case .postgres(let pool):
            let logger = logger
            PostgresChangeFeed.watch(
                database, info: pool.info, lists: lists.map { ($0.path, $0.schema.name, $0.schema.kind == .view) }, watchers: watchers
            ) { message in logger.warning("\(message)") }
        }
        // Named by the file's name, not its path, or by the PostgreSQL database's name: `/readyz` is public.
        addReadinessCheck("database \(database.displayName)") { try database.checkReadable() }
    }

    /// Mounts the database `--database` named — a SQLite file, or a `postgres://` URL — with the
    /// configuration `--config` named or, for a file, the one beside it (`shop.db` → `shop.yaml` or
    /// `shop.yml`), and the templates `--templates` names. Does nothing when no database was named.
    ///
    /// A PostgreSQL server that is away at start (``DatabaseOpenError/isTransient``: not reached,
    /// starting up, too many connections) does not stop the start: its lists are mounted when it
    /// can be reached (``mountWhenReachable(_:reason:_:)``), checked against the configuration then,
    /// and until then `serve` is not ready and answers 503. A refusal (the role, its password, the
    /// database's name) or a configuration that does not fit still ends the start.
    public func mountDatabaseFromCommandLine() throws {
        guard let path = databasePath else { return }
        var options = DatabaseOptions()
        if let limit = databaseTimeLimit { options.timeLimit = limit }
        var isFolder = false
        if FileManager.default.fileExists(atPath: publicDirectory + "/prototypes", isDirectory: &isFolder), isFolder {
            try registerPrototypes()
        }
        if let templates = databaseTemplatesPath { try registry.registerPrototypes(in: templates) }
        let isPostgres = PostgresConnectionInfo.isURL(path)
        // A URL has no folder to find a configuration beside: `--config` names it.
        let configuration =
            isPostgres
            ? try databaseConfigurationPath.map { path in try DatabaseConfiguration.load(named: path, besideDatabase: "") } ?? DatabaseConfiguration()
            : try DatabaseConfiguration.load(named: databaseConfigurationPath, besideDatabase: path)
        let attempt = { (app: App) throws -> DeferredMount.Outcome in
            do {
                try app.mount(Database.open(path, options: options), configuration: configuration)
                return .mounted
            } catch let error as DatabaseOpenError where error.isTransient {
                return .notYet(reason: error.description)
            } catch let error as HTTPError where isPostgres && error.status == .serviceUnavailable {
                // Reached, then away before every table was counted (`mount` left the app as it was).
                return .notYet(reason: error.message)
            }
        }
        guard case .notYet(let reason) = try attempt(self) else { return }
        let name = "database \((try? PostgresConnectionInfo(path).databaseName) ?? "postgres")"
        mountWhenReachable(name, reason: reason, attempt)
    }

    /// Paths the server answers itself, which no table may take.
    static let reservedFirstSegments: Set<String> = ["static", "healthz", "metrics", "readyz", "-", "index", "index.json", "favicon.ico"]

    /// Paths under `/-/` the server keeps for itself (the SQL page, canned queries), with their
    /// twins: a table whose path would be one of them is at its hex path.
    static let reservedDashPaths: Set<String> = Set(
        ["/-/query", "/-/queries"].flatMap { [$0, $0 + ".json", $0 + ".csv"] })

    /// Each table's path: `/{name}`; `/-/{name}` for a name that would shadow another path or a
    /// list's `.json` or `.csv` twin; `/-/x/{hex of its UTF-8}` for a name a route cannot hold or a
    /// link would lose (`..` is removed from a URL before it is asked for), and for any name whose
    /// path or twins another table's already take. No two tables share a path or a twin.
    static func listPaths(for names: [String]) -> [String: String] {
        let all = Set(names)
        var claimed = reservedDashPaths
        var paths: [String: String] = [:]
        func claims(_ path: String) -> [String] { [path, path + ".json", path + ".csv"] }
        // Plain names first: `/{name}` is what users expect, and what the others must step around.
        let plain = names.filter { listPath(for: $0, among: all).hasPrefix("/-/") == false }
        for name in plain + names.filter({ !plain.contains($0) }) {
            var path = listPath(for: name, among: all)
            if claims(path).contains(where: claimed.contains) { path = hexPath(for: name) }
            paths[name] = path
            claimed.formUnion(claims(path))
        }
        return paths
    }

    static func listPath(for name: String, among names: Set<String>) -> String {
        if name.isEmpty || name.contains("/") || name.hasPrefix(":") || name.hasPrefix("*") || name == "." || name == ".." {
            return hexPath(for: name)
        }
        let shadowsTwin = [".json", ".csv"].contains { name.hasSuffix($0) && names.contains(String(name.dropLast($0.count))) }
        if reservedFirstSegments.contains(name) || shadowsTwin { return "/-/" + name }
        return "/" + name
    }

    /// `/-/x/` and the name's UTF-8 in hex: a path no name can take otherwise.
    static func hexPath(for name: String) -> String {
        "/-/x/" + HexDigits.string(of: name.utf8)
    }

    /// The index's line for a list: its row count (up to the count limit) and its kind.
    static func summary(of list: TableList, in database: Database) throws -> String {
        let cap = database.options.countLimit
        let counted = try database.read { connection in
            try connection.integer("SELECT count(*) FROM (SELECT 1 FROM \(list.quotedName) LIMIT ?) AS counted", [.integer(Int64(cap) + 1)])
        }
        let rows = counted > cap ? "more than \(cap.formatted()) rows" : counted == 1 ? "1 row" : "\(counted.formatted()) rows"
        return list.schema.kind == .view ? "View, \(rows)" : rows.prefix(1).uppercased() + rows.dropFirst()
    }

    /// The index's list of a table's columns: `id, name, price` (the first 12, then how many more).
    static func columnNames(of list: TableList) -> String {
        let names = list.columns.map(\.name)
        let shown = names.prefix(12).joined(separator: ", ")
        return names.count > 12 ? shown + " and \(names.count - 12) more" : shown
    }
}

extension Int {
    /// `10000` → `10,000`, as pages write counts.
    func formatted() -> String {
        var html = HTMLWriter()
        html.text(grouping: self)
        return html.string
    }
}
