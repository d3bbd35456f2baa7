import ByteWriters
import Cellar
import MicroHTTP

/// The lists one `mount` call made, as the database's schema is now. A migration while the server
/// runs (a column added or renamed, a table dropped) is followed without a restart: each request
/// first compares the schema's version (``Database/currentVersions()``) with the one the lists were
/// made from, and the first request after a change makes every list again from the schema read
/// then. A table that is gone answers 404; one whose configuration no longer fits its columns, a
/// 503 that says why.
///
/// The lists of a version are a value made whole before it is shared, behind one lock: a request
/// uses the lists of the version it saw, whatever another request stores meanwhile.
final class DatabaseCatalog: Sendable {
    /// The lists made from one version of the schema.
    struct Generation: Sendable {
        let schemaVersion: String
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

    let database: Database
    private let mounted: [Mounted]
    private let file: DatabaseConfiguration
    private let cells: DatabaseCellProvider?
    /// The tables a foreign key may link to; nil for every table the schema has.
    private let linkTargets: Set<String>?
    private let current: Locked<Generation>

    /// Makes the lists from the schema `database` was opened with.
    ///
    /// - Throws: ``ConfigurationError`` for a configuration that does not fit the schema.
    init(
        database: Database, mounted: [Mounted], file: DatabaseConfiguration, cells: DatabaseCellProvider? = nil, linkTargets: Set<String>? = nil
    ) throws {
        self.database = database
        self.mounted = mounted
        self.file = file
        self.cells = cells
        self.linkTargets = linkTargets
        let version = try database.currentVersions().schema
        var made: [TableList] = []
        for entry in mounted {
            guard let table = database.schema.table(named: entry.name) else { continue }
            made.append(try Self.makeList(table, entry, in: database.schema, database: database, file: file, cells: cells, linkTargets: linkTargets))
        }
        current = Locked(Generation(schemaVersion: version, lists: DatabaseLists(made), problems: [:]))
    }

    /// The lists as first made (at mount).
    var initialLists: [TableList] {
        let lists = current.withLock { $0.lists }
        return mounted.compactMap { lists.byName[$0.name] }
    }

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

    /// The lists for the schema as it is now: the ones kept, or made again after a change.
    func generation() throws -> (Generation, dataVersion: String?) {
        let versions = try database.currentVersions()
        let known = current.withLock { $0 }
        if known.schemaVersion == versions.schema { return (known, versions.data) }
        let made = try remake(after: known, version: versions.schema)
        current.withLock { $0 = made }
        return (made, versions.data)
    }

    private func remake(after previous: Generation, version: String) throws -> Generation {
        let schema = try database.readSchema()
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
        return Generation(schemaVersion: version, lists: DatabaseLists(made), problems: problems)
    }

    /// A table's list, its label column chosen from its rows unless configured or given.
    private static func makeList(
        _ table: TableSchema, _ entry: Mounted, in schema: DatabaseSchema, database: Database, file: DatabaseConfiguration,
        cells: DatabaseCellProvider?, linkTargets: Set<String>?, label: LabelColumn.Choice? = nil
    ) throws -> TableList {
        let choice = try label ?? (entry.settings?.labelColumn == nil ? .sampled(LabelColumn.choose(for: table, in: database)) : .unsampled)
        return try TableList(
            schema: table, path: entry.path, tableNames: linkTargets ?? Set(schema.tables.map(\.name)), configuration: entry.settings, in: file,
            cells: cells, dialect: database.dialect, label: choice)
    }
}
