import ByteWriters
import Cellar
import MicroHTTP

/// The lists one `mount` call made, as the database's schema is now. A migration while the server
/// runs (a column added or renamed, a table created or dropped) is followed without a restart: each
/// request first compares the schema's version (``Database/currentVersions()``) with the one the
/// lists were made from, and the first request after a change makes every list again from the
/// schema read then. A table that is gone answers 404; one whose configuration no longer fits its
/// columns, a 503 that says why. A catalog of the whole database (``Adoption``) also makes lists of
/// the tables created since, at paths chosen as at mount, and says so (``Adoption/tablesChanged``):
/// the app's routes, index and navigation follow (``LiveRoutes``).
///
/// The lists of a version are a value made whole before it is shared, behind one lock: a request
/// uses the lists of the version it saw, whatever another request stores meanwhile.
final class DatabaseCatalog: Sendable {
    /// The lists made from one version of the schema.
    struct Generation: Sendable {
        let schemaVersion: String
        /// Every table mounted so far, with its path: those of the mount, and those created since
        /// (a dropped one keeps its path, should it come back).
        let mounted: [Mounted]
        /// The names of the mounted tables the schema has (a table whose list cannot be made is one).
        let present: Set<String>
        let lists: DatabaseLists
        /// Tables whose list cannot be made from this schema, with why.
        let problems: [String: String]
    }

    /// What a table's list is made with, besides its schema.
    struct Mounted: Sendable {
        let name: String
        let path: String
        let settings: DatabaseConfiguration.Table?
    }

    /// How a catalog of the whole database takes in tables created while serving.
    struct Adoption: Sendable {
        /// The path the lists go under (`App.mount(_:at:)`'s prefix).
        let prefix: String
        /// Called after a request found tables created or dropped since the last generation.
        let tablesChanged: @Sendable (DatabaseCatalog) -> Void
    }

    let database: Database
    private let adoption: Adoption?
    private let file: DatabaseConfiguration
    private let cells: DatabaseCellProvider?
    /// The tables a foreign key may link to; nil for every table the schema has.
    private let linkTargets: Set<String>?
    private let current: Locked<Generation>
    /// The current generation's lists as actors who may not view some tables see them, by the
    /// tables they may not view (as many as there are sets of rights, at most ``hidingLimit``).
    private let hidingViews = Locked<(of: DatabaseLists?, byHidden: [Set<String>: DatabaseLists])>((nil, [:]))
    static let hidingLimit = 64

    /// Makes the lists from the schema `database` was opened with.
    ///
    /// - Throws: ``ConfigurationError`` for a configuration that does not fit the schema.
    init(
        database: Database, mounted: [Mounted], file: DatabaseConfiguration, cells: DatabaseCellProvider? = nil, linkTargets: Set<String>? = nil,
        adoption: Adoption? = nil
    ) throws {
        self.database = database
        self.adoption = adoption
        self.file = file
        self.cells = cells
        self.linkTargets = linkTargets
        let version = try database.currentVersions().schema
        var made: [TableList] = []
        for entry in mounted {
            guard let table = database.schema.table(named: entry.name) else { continue }
            made.append(try Self.makeList(table, entry, in: database.schema, database: database, file: file, cells: cells, linkTargets: linkTargets))
        }
        current = Locked(
            Generation(
                schemaVersion: version, mounted: mounted, present: Set(made.map(\.schema.name)), lists: DatabaseLists(made), problems: [:]))
    }

    /// The lists as first made (at mount).
    var initialLists: [TableList] { currentLists }

    /// The lists of the generation made last, in the order their tables were mounted.
    var currentLists: [TableList] {
        let generation = current.withLock { $0 }
        return generation.mounted.compactMap { generation.lists.byName[$0.name] }
    }

    /// The generation made last: what the app's routes are brought in line with after a change.
    var latest: Generation { current.withLock { $0 } }

    /// The list of the table `name` as the schema was at the last look, without looking again:
    /// for a write, whose statements SQLite checks against the schema as it is (a column gone
    /// since is its error, a 503), where a look would cost as much as the write.
    func lastKnownList(named name: String) throws -> (list: TableList, lists: DatabaseLists) {
        let lists = current.withLock { $0.lists }
        if let list = lists.byName[name] { return (list, lists) }
        let (list, all, _) = try self.list(named: name)
        return (list, all)
    }

    /// The list of the table `name` as the schema is now, with every list it links to, and the
    /// data's version seen with the schema's (SQLite's; nil for PostgreSQL).
    ///
    /// - Throws: 404 for a table no longer in the database; 503 for one whose configuration no longer fits it.
    func list(named name: String) throws -> (list: TableList, lists: DatabaseLists, dataVersion: String?) {
        let (generation, dataVersion) = try generation()
        if let list = generation.lists.byName[name] { return (list, generation.lists, dataVersion) }
        if let problem = generation.problems[name] {
            throw HTTPError(
                .serviceUnavailable,
                "The schema of “\(name)” changed, and its configuration no longer fits it: \(problem). Change the configuration to fit, then restart.",
                headers: ["Retry-After": "5"])
        }
        throw HTTPError.notFound("The table “\(name)” is no longer in the database.")
    }

    /// ``list(named:)`` as `request`'s actor may see it: the other lists without the tables it may
    /// not view (``AccessControl/unviewable(_:by:)``), so that no link, label, count or schema
    /// reference names them. `access` nil: no sign-in, every list.
    func list(named name: String, seenBy request: Request, access: AccessControl?) throws -> (
        list: TableList, lists: DatabaseLists, dataVersion: String?
    ) {
        let found = try list(named: name)
        guard let access else { return found }
        let hidden = hiddenTables(in: found.lists, seenBy: request, access: access)
        guard !hidden.isEmpty else { return found }
        let lists = hidingViews.withLock { views -> DatabaseLists in
            if views.of !== found.lists || views.byHidden.count >= Self.hidingLimit { views = (found.lists, [:]) }
            if let made = views.byHidden[hidden] { return made }
            let made = found.lists.hiding(hidden)
            views.byHidden[hidden] = made
            return made
        }
        return (found.list, lists, found.dataVersion)
    }

    /// The names of the tables among `lists` that `request`'s actor may not view.
    func hiddenTables(in lists: DatabaseLists, seenBy request: Request, access: AccessControl) -> Set<String> {
        let paths = access.unviewable(lists.ordered.map(\.path), by: request)
        guard !paths.isEmpty else { return [] }
        return Set(lists.ordered.filter { paths.contains($0.path) }.map(\.schema.name))
    }

    /// The lists for the schema as it is now: the ones kept, or made again after a change.
    func generation() throws -> (Generation, dataVersion: String?) {
        let versions = try database.currentVersions()
        let known = current.withLock { $0 }
        if known.schemaVersion == versions.schema { return (known, versions.data) }
        let made = try remake(after: known, version: versions.schema)
        current.withLock { $0 = made }
        if let adoption, made.present != known.present { adoption.tablesChanged(self) }
        return (made, versions.data)
    }

    private func remake(after previous: Generation, version: String) throws -> Generation {
        let schema = try database.readSchema()
        let mounted = adopting(schema, into: previous.mounted)
        var made: [TableList] = []
        var problems: [String: String] = [:]
        for entry in mounted {
            guard let table = schema.table(named: entry.name) else { continue }
            // A table whose columns did not change keeps the label its rows were judged by.
            let kept = previous.lists.byName[entry.name].flatMap { $0.schema == table ? $0.labelColumn : nil }
            do {
                made.append(
                    try Self.makeList(
                        table, entry, in: schema, database: database, file: file, cells: cells, linkTargets: linkTargets,
                        label: kept.map { .sampled($0) }))
            } catch let error as ConfigurationError {
                problems[entry.name] = error.description
            }
        }
        let present = Set(mounted.map(\.name).filter { schema.table(named: $0) != nil })
        return Generation(schemaVersion: version, mounted: mounted, present: present, lists: DatabaseLists(made), problems: problems)
    }

    /// `mounted` and, for a catalog of the whole database, the tables of `schema` not mounted yet,
    /// each at `/{name}` unless that path or its twins are taken (then at its hex path), as at mount.
    private func adopting(_ schema: DatabaseSchema, into mounted: [Mounted]) -> [Mounted] {
        guard let adoption else { return mounted }
        var all = mounted
        let known = Set(mounted.map(\.name))
        let names = Set(schema.tables.map(\.name))
        func claims(_ path: String) -> [String] { [path, path + ".json", path + ".csv"] }
        var claimed = App.reservedDashPaths.union(mounted.flatMap { claims(String($0.path.dropFirst(adoption.prefix.count))) })
        for table in schema.tables where !known.contains(table.name) {
            var path = App.listPath(for: table.name, among: names)
            if claims(path).contains(where: claimed.contains) { path = App.hexPath(for: table.name) }
            claimed.formUnion(claims(path))
            all.append(Mounted(name: table.name, path: adoption.prefix + path, settings: nil))
        }
        return all
    }

    /// The columns of a view that show a table's secret column (``SecretViewColumns``); none for a table.
    private static func secretColumns(shownBy view: TableSchema, in database: Database, file: DatabaseConfiguration) throws -> [String] {
        guard view.kind == .view else { return [] }
        let secret = Set(file.tables.flatMap { name, table in table.secret.map { UnreadableTables.secretKey(table: name, column: $0) } })
        guard !secret.isEmpty else { return [] }
        switch database.engine {
        case .sqlite(let pool):
            return try pool.withConnection { connection in try SecretViewColumns.of(view, secret: secret, on: connection, in: file) }
        case .postgres(let pool):
            return try pool.withConnection(deadline: .seconds(database.options.timeLimit)) { connection in
                try SecretViewColumns.of(view, secret: secret, on: connection, in: file)
            }
        }
    }

    /// A table's list, its label column chosen from its rows unless configured or given.
    private static func makeList(
        _ table: TableSchema, _ entry: Mounted, in schema: DatabaseSchema, database: Database, file: DatabaseConfiguration,
        cells: DatabaseCellProvider?, linkTargets: Set<String>?, label: LabelColumn.Choice? = nil
    ) throws -> TableList {
        var settings = entry.settings
        // A view that shows a secret column as it is keeps it secret too (``SecretViewColumns``), and
        // so does a list a column its role may not read (PostgreSQL's column grants).
        let shown = try secretColumns(shownBy: table, in: database, file: file) + table.columns.filter { !$0.isReadable }.map(\.name)
        if !shown.isEmpty {
            var widened = settings ?? DatabaseConfiguration.Table()
            widened.secret += shown.filter { !widened.secret.contains($0) }
            settings = widened
        }
        let choice =
            try label
            ?? (settings?.labelColumn == nil
                ? .sampled(LabelColumn.choose(for: table, in: database, secret: settings?.secret ?? [])) : .unsampled)
        return try TableList(
            schema: table, path: entry.path, tableNames: linkTargets ?? Set(schema.tables.map(\.name)), configuration: settings, in: file,
            cells: cells, dialect: database.dialect, label: choice)
    }
}
