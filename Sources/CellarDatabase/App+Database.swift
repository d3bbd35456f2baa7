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
    /// where it is. A table created while the app serves is mounted the same way once a request
    /// sees the new schema (its list, the index or a path no route answers), and a dropped one
    /// leaves the index and navigation (``LiveRoutes``).
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
        let live = liveRoutes
        let routed = Locked(Set<String>())
        let catalog = try DatabaseCatalog(
            database: database,
            mounted: tables.map { table in
                DatabaseCatalog.Mounted(
                    name: table.name, path: prefix + (paths[table.name] ?? Self.hexPath(for: table.name)), settings: configuration.tables[table.name])
            }, file: configuration,
            adoption: DatabaseCatalog.Adoption(prefix: prefix) { catalog in
                live.update { app in app.followTables(of: catalog, routed: routed) }
            })
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
        let (queries, writtenSQL) = try queryRunner(for: database, configuration: configuration, lists: made) ?? (nil, false)
        let canned = try queries.map { runner in try Self.checkedCannedQueries(database, runner: runner, configuration: configuration) } ?? []
        var mounted: [(table: String, path: String)] = []
        for (list, summary) in zip(made, summaries) {
            let readOnly = mountWritable(list, catalog: catalog, settings: configuration.tables[list.schema.name])
            mountList(list, catalog: catalog, summary: summary, writable: readOnly == nil)
            mountTableRoutes(list, catalog: catalog)
            mounted.append((list.schema.name, list.path))
        }
        routed.withLock { $0 = Set(made.map(\.path)) }
        // The index and a path no route answers look for tables created since.
        live.addCheck { _ = try? catalog.generation() }
        if let queries {
            if writtenSQL { mountQuery(database, runner: queries, at: Self.queryPath(under: prefix)) }
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
        let readOnly = mountWritable(list, catalog: catalog, settings: settings)
        mountList(list, catalog: catalog, writable: readOnly == nil)
        mountTableRoutes(list, catalog: catalog)
        monitorChanges(of: database, lists: [list])
        return path
    }

    /// The connections `/-/query` and the canned queries run statements on (``QueryRunner``), or nil
    /// when there are none to run: the SQL page off (`--no-sql`, ``App/databaseAllowsSQL``, or
    /// `sql: false` in the configuration) and no canned query. Canned queries stay with the SQL page
    /// off: they run only what the configuration says. `writtenSQL`: whether `/-/query` is on —
    /// not over PostgreSQL when the serving role can do more than read, or may read a secret column
    /// (no authorizer reads it as NULL there; ``QueryRunner/secretColumnGrants(of:pool:timeLimit:)``).
    ///
    /// With sign-in, a statement reads none of `lists`' tables its actor may not view.
    private func queryRunner(
        for database: Database, configuration: DatabaseConfiguration, lists: [TableList]
    ) throws -> (QueryRunner?, writtenSQL: Bool)? {
        let sqlPage = databaseAllowsSQL && configuration.allowsSQL
        guard sqlPage || !configuration.queries.isEmpty else { return nil }
        // Asked per request: sign-in's flags are applied after the lists are mounted.
        let app = self
        let tables = lists.map { (name: $0.schema.name, path: $0.path) }
        let unreadable: @Sendable (Request) -> Set<String> = { request in
            guard let access = app.accessControl else { return [] }
            let paths = access.unviewable(tables.map(\.path), by: request)
            return paths.isEmpty ? [] : Set(tables.filter { paths.contains($0.path) }.map(\.name))
        }
        let secret = lists.flatMap { list in list.secretColumnNames.map { UnreadableTables.secretKey(table: list.schema.name, column: $0) } }
        switch database.engine {
        case .postgres(let pool):
            let secretNames = lists.flatMap { list in list.secretColumnNames.map { list.schema.name + "." + $0 } }
            let grants = sqlPage ? try QueryRunner.secretColumnGrants(of: lists, pool: pool, timeLimit: database.options.timeLimit) : []
            if !grants.isEmpty {
                logger.warning(
                    "/-/query is off: the serving role may read a secret column, and so would any statement; to turn it on, run as the tables' owner what to_run says (or serve with --no-sql)",
                    metadata: [
                        "database": "\(database.displayName)", "secret_columns": "\(secretNames.joined(separator: ", "))",
                        "to_run": "\(grants.joined(separator: "; "));",
                    ])
                guard !configuration.queries.isEmpty else { return nil }
                return (QueryRunner(postgres: pool.info, timeLimit: database.options.timeLimit, unreadableTables: unreadable), false)
            }
            let reach = sqlPage ? try QueryRunner.reachBeyondReading(in: database) : []
            if !reach.isEmpty {
                logger.warning(
                    "/-/query is off: the serving role can do more than read through it; serve with a role that may only SELECT, or --no-sql",
                    metadata: ["database": "\(database.displayName)", "role_may": "\(reach.joined(separator: "; "))"])
                guard !configuration.queries.isEmpty else { return nil }
            }
            return (QueryRunner(postgres: pool.info, timeLimit: database.options.timeLimit, unreadableTables: unreadable), sqlPage && reach.isEmpty)
        case .sqlite:
            do {
                let runner = try QueryRunner(
                    path: database.path, timeLimit: database.options.timeLimit, unreadableTables: unreadable, secretColumns: Set(secret))
                return (runner, sqlPage)
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

    /// Brings the app's lists in line with `catalog`'s latest generation: a table created since is
    /// mounted (its CSV and schema routes once: `routed` holds the paths that have them), a
    /// dropped one removed from the lists (its routes answer 404 from the catalog). Idempotent:
    /// two requests may both find the change.
    private func followTables(of catalog: DatabaseCatalog, routed: Locked<Set<String>>) {
        let generation = catalog.latest
        var added: [TableList] = []
        for entry in generation.mounted {
            let isListed = lists.contains { $0.path == entry.path }
            if generation.present.contains(entry.name) {
                guard !isListed, let list = generation.lists.byName[entry.name] else { continue }
                let summary = ((try? Self.summary(of: list, in: catalog.database)) ?? (list.schema.kind == .view ? "View" : "Table"))
                // Writable as a table there at start is (`--writable`): its write API and forms mounted with its routes, once.
                let readOnly = list.schema.kind == .table ? list.readOnlyReason(settings: entry.settings, in: catalog.database) : "a view"
                let writable = readOnly == nil && catalog.database.isWritable
                mountList(list, catalog: catalog, summary: summary + " · " + Self.columnNames(of: list), writable: writable)
                if routed.withLock({ $0.insert(list.path).inserted }) {
                    mountTableRoutes(list, catalog: catalog)
                    mountWritable(list, catalog: catalog, settings: entry.settings)
                    added.append(list)
                }
                logger.info("a table was created: its list is mounted", metadata: ["table": "\(entry.name)", "path": "\(entry.path)"])
            } else if isListed {
                removeList(at: entry.path)
                logger.info("a table was dropped: its list is removed", metadata: ["table": "\(entry.name)", "path": "\(entry.path)"])
            }
        }
        if !added.isEmpty, case .sqlite = catalog.database.engine {
            DatabaseChangeMonitor.watch(catalog.database, paths: Set(added.map(\.path)), watchers: watchers)
        }
    }

    /// Mounts a table's list (its CSV answered by its controller, ``CSVResponding``): each
    /// request asks `catalog` for the list as the schema is now. The schema's path is two segments
    /// below the table, a row's (`/{table}/{key}`) one, so no row is shadowed: a row keyed `-` is at
    /// `/{table}/-`, and a key holding `/` is sent as `%2F`, within its one segment.
    ///
    /// An actor who may not view some tables sees the lists without them (``DatabaseCatalog/list(named:seenBy:access:)``).
    private func mountList(_ list: TableList, catalog: DatabaseCatalog, summary: String? = nil, writable: Bool = false) {
        let database = catalog.database
        let name = list.schema.name
        // Read per request: sign-in's flags are applied after the lists are mounted.
        let app = self
        self.list(
            list.path, title: list.title, summary: summary ?? list.description ?? "",
            paging: .keyset(defaultLimit: list.pageSize ?? database.options.defaultLimit, maxLimit: database.options.maxLimit),
            hasDetail: list.hasKey
        ) { context in
            let (list, lists, version) = try catalog.list(named: name, seenBy: context.request, access: app.accessControl)
            let controller: DatabaseListController
            if writable, database.isWritable {
                // A writable table's list takes editing mode's changes, and has the others told.
                let others = lists.byName.values.map(\.path).filter { $0 != list.path }
                let tell = { @Sendable in for path in others { app.watchers.listDidChange(at: path) } }
                controller =
                    list.isSearchable
                    ? try SearchableEditableDatabaseListController(
                        list: list, lists: lists, database: database, context: context, version: version, otherListsDidChange: tell)
                    : try EditableDatabaseListController(
                        list: list, lists: lists, database: database, context: context, version: version, otherListsDidChange: tell)
            } else {
                controller =
                    list.isSearchable
                    ? try SearchableDatabaseListController(list: list, lists: lists, database: database, context: context, version: version)
                    : try DatabaseListController(list: list, lists: lists, database: database, context: context, version: version)
            }
            if writable, context.rowIdentifier != nil, let control = self.accessControl {
                controller.allowedRowActions = (
                    control.permits(context.request, .update, on: list.path), control.permits(context.request, .delete, on: list.path)
                )
            }
            return controller
        }
    }

    /// Mounts a table's schema (`/{table}/-/schema`, and `.json`), once per path; its CSV is its
    /// list's controller's (``CSVResponding``). The
    /// schema's path is two segments below the table, a row's (`/{table}/{key}`) one, so no row is
    /// shadowed: a row keyed `-` is at `/{table}/-`, and a key holding `/` is sent as `%2F`, within
    /// its one segment.
    private func mountTableRoutes(_ list: TableList, catalog: DatabaseCatalog) {
        let database = catalog.database
        let name = list.schema.name
        // Read per request: sign-in's flags are applied after the lists are mounted.
        let app = self
        page(list.path + "/-/schema", title: "\(list.title): schema") { request, page in
            let (list, lists, _) = try catalog.list(named: name, seenBy: request, access: app.accessControl)
            SchemaDescription.writePage(of: list, lists: lists, into: &page.html)
            return .ok
        }
        route(.get, list.path + "/-/schema.json") { request in
            let (list, lists, _) = try catalog.list(named: name, seenBy: request, access: app.accessControl)
            return Response.json(SchemaDescription.json(of: list, lists: lists))
        }
    }

    /// Mounts a table's write API (``mountWriteAPI(_:catalog:readOnly:)``); a table the database's
    /// writability does not reach is said so at start, and its write paths answer why.
    /// - Returns: why the table is not written (nil: it is).
    @discardableResult
    private func mountWritable(_ list: TableList, catalog: DatabaseCatalog, settings: DatabaseConfiguration.Table?) -> String? {
        guard list.schema.kind == .table else { return "a view" }
        let reason = list.readOnlyReason(settings: settings, in: catalog.database)
        if let reason, catalog.database.isWritable, settings?.writable != false {
            logger.warning("\(reason)", metadata: ["table": "\(list.schema.name)"])
        }
        // Without --writable the API still answers, to say so.
        mountWriteAPI(list, catalog: catalog, readOnly: reason)
        guard catalog.database.isWritable else { return "the database is served read-only" }
        if reason == nil { mountWriteForms(list, catalog: catalog) }
        return reason
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
        options.writable = databaseWritable
        options.requiresIfMatch = databaseRequiresIfMatch
        options.maxRowsPerWrite = maxRowsPerWrite
        options.cachesFacets = databaseCachesFacets
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
