import FoundationEssentials
import Yams

/// How a database's lists look, read from a YAML file next to the database (`shop.db` →
/// `shop.yaml`) or named by `--config`:
///
/// ```yaml
/// sql: false                              # no SQL page (/-/query); the default is true
/// queries:                                # canned queries, each a list at /-/queries/{name}
///   by_vintage:
///     sql: SELECT name, price FROM items WHERE vintage = :vintage
///     title: Items of a vintage           # the list's title (default: the name)
///     description: One vintage's items    # the index's line about it
/// tables:
///   items:
///     title: Items in stock
///     description: Every item the shop sells.
///     columns: [title, price, status]     # shown, in this order (default: all)
///     labels: {price: Price (€)}
///     label: title                        # titles a row, and labels links to it
///     sort: [-price]                      # the default order
///     page_size: 50
///     layout: columns                     # rows as a table (default), or cells
///     facets: [status, category_id]       # each column's most common values, counted above the list
///     secret: [api_key]                   # written, never read back: in no page, JSON, CSV or query answer
///     sections: category_id               # rows grouped by a column: header and count
///     cells:                              # the cell provider, as data
///       column: status
///       when: {sold_out: SoldOutCell}     # a prototype from Public/prototypes or --templates
///       default: ItemCell                 # else DatabaseRowCell
///     search:                             # what q= searches (default: the one the table has)
///       index: items_search               # SQLite: the FTS5 table; PostgreSQL: an index over to_tsvector(…)
///       column: document                  # PostgreSQL: a tsvector column, instead of an index
///       configuration: english            # PostgreSQL: the text-search configuration q= is parsed with
///   drafts:
///     search: false                       # no search box, though an index exists
/// ```
///
/// `accounts:` and `permissions:` may stand beside these: Cellar reads them (`AccessConfiguration`).
///
/// Every mistake — a key that means nothing, a table or column the database does not have, a value
/// of the wrong kind — stops start-up naming the file, line and column.
public struct DatabaseConfiguration: Sendable, Equatable {
    public struct Table: Sendable, Equatable {
        public var title: String?
        public var description: String?
        public var columns: [String]?
        public var labels: [String: String] = [:]
        public var labelColumn: String?
        public var sort: [String]?
        public var pageSize: Int?
        public var sections: String?
        public var cells: CellRules?
        public var search: Search?
        /// How rows are laid out; nil: columns, unless the table has cell rules or an app's cells.
        public var layout: Layout?
        /// Columns whose values are counted above the list, as `facet=` asks.
        public var facets: [String] = []
        /// `writable: false` keeps the table read-only when the database is served `--writable`.
        public var writable = true
        /// `order: position`: the integer column that holds each row's place, by which the list is
        /// sorted when no `sort` is given and which editing mode's moves rewrite.
        public var order: String?
        /// `secret: [password_hash]`: columns whose values are written (forms, the write API) but
        /// never read back — in no page, JSON, CSV, facet, filter, sort or `/-/query` answer.
        public var secret: [String] = []
        public init() {}
    }

    /// How a table's rows are laid out (``TableStyle``): each in a cell of its own, or as the
    /// columns of a table.
    public enum Layout: String, Sendable, Equatable {
        case cells, columns
    }

    /// What `q=` searches, when the table's own choice is not the one wanted: SQLite searches the
    /// FTS5 table that indexes the table; PostgreSQL a `tsvector` column, else an index over
    /// `to_tsvector(…)`, the first by name.
    public struct Search: Sendable, Equatable {
        /// False: no search, though the table has an index.
        public var enabled = true
        /// SQLite: the FTS5 table; PostgreSQL: an index over `to_tsvector(…)`, by name.
        public var index: String?
        /// PostgreSQL: a `tsvector` column.
        public var column: String?
        /// PostgreSQL: the text-search configuration (`english`, `simple`) a search's words are read
        /// with; by default the one the index's expression names, else the server's
        /// `default_text_search_config`.
        public var configuration: String?
        public init() {}
    }

    /// A statement the configuration names, served as a list at `/-/queries/{name}` with a form for
    /// its `:named` parameters, whose values are bound, never written into the SQL.
    public struct CannedQuery: Sendable, Equatable {
        /// Its path's last segment: letters, digits, `_` and `-`.
        public var name: String
        public var sql: String
        public var title: String?
        public var description: String?

        public init(name: String, sql: String, title: String? = nil, description: String? = nil) {
            self.name = name
            self.sql = sql
            self.title = title
            self.description = description
        }
    }

    /// Which cell renders a row, chosen by one column's value: a `DataCellProvider` as data.
    public struct CellRules: Sendable, Equatable {
        public var column: String
        public var when: [String: String]
        public var defaultCell: String?
    }

    public var tables: [String: Table] = [:]
    /// Canned queries, in the file's order: each a list at `/-/queries/{name}`.
    public var queries: [CannedQuery] = []
    /// Whether the database gets its SQL page, `/-/query` (`sql: false` turns it off).
    public var allowsSQL = true
    /// Where the configuration came from, for messages.
    public var file: String?
    /// Each key's place in the file (`tables.items.sort` → line 4, column 5), for messages about
    /// what a key names (a column the table does not have).
    var marks: [String: (line: Int, column: Int)] = [:]

    public init() {}

    public static func == (lhs: DatabaseConfiguration, rhs: DatabaseConfiguration) -> Bool {
        lhs.tables == rhs.tables && lhs.allowsSQL == rhs.allowsSQL && lhs.queries == rhs.queries && lhs.file == rhs.file
    }

    /// Reads a configuration from YAML text.
    public init(yaml: String, file: String) throws(ConfigurationError) {
        self.file = file
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw ConfigurationError(file: file, line: Self.line(of: error), column: nil, key: nil, message: Self.problem(of: error))
        } catch {
            throw ConfigurationError(file: file, line: nil, column: nil, key: nil, message: "\(error)")
        }
        guard let root else { return }
        var reader = Reader(file: file)
        let top = try reader.mapping(root, key: "", allowed: ["tables", "sql", "queries", "accounts", "permissions", "revoked_tokens"])
        for (name, node) in try reader.entries(top["queries"], key: "queries") {
            queries.append(try reader.query(node, name: name, key: "queries.\(name)"))
        }
        if let node = top["sql"] {
            guard let value = node.scalar?.string, value == "true" || value == "false" else {
                throw reader.fail(node, "sql", "expected true or false (false turns /-/query off)")
            }
            allowsSQL = value == "true"
        }
        for (name, node) in try reader.entries(top["tables"], key: "tables") {
            self.tables[name] = try reader.table(node, key: "tables.\(name)")
        }
        marks = reader.marks
    }

    /// The configuration at `path`, or, when none is named, the one beside the database
    /// (`shop.db` → `shop.yaml`, then `shop.yml`), or an empty one when there is none.
    public static func load(named path: String?, besideDatabase database: String) throws -> DatabaseConfiguration {
        if let path {
            guard let text = readFile(path) else {
                throw ConfigurationError(file: path, line: nil, column: nil, key: nil, message: "cannot read the configuration file")
            }
            return try DatabaseConfiguration(yaml: text, file: path)
        }
        let stem =
            database.split(separator: "/").last.map { name in
                name.contains(".") ? String(name[..<name.lastIndex(of: ".")!]) : String(name)
            } ?? database
        let folder = database.contains("/") ? String(database[...database.lastIndex(of: "/")!]) : ""
        for candidate in [folder + stem + ".yaml", folder + stem + ".yml"] {
            if let text = readFile(candidate) { return try DatabaseConfiguration(yaml: text, file: candidate) }
        }
        return DatabaseConfiguration()
    }

    private static func readFile(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// The place of a key in the file, or nil.
    func mark(of key: String) -> (line: Int, column: Int)? { marks[key] }

    /// An error about what `key` names, placed where the key is.
    func error(_ key: String, _ message: String) -> ConfigurationError {
        let place = marks[key]
        return ConfigurationError(file: file ?? "configuration", line: place?.line, column: place?.column, key: key, message: message)
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        default: nil
        }
    }

    private static func problem(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): "not valid YAML: \(problem)"
        default: "not valid YAML: \(error)"
        }
    }

    /// Reads nodes into values, checking each key, and remembers where each key was.
    private struct Reader {
        let file: String
        var marks: [String: (line: Int, column: Int)] = [:]

        func fail(_ node: Node?, _ key: String, _ message: String) -> ConfigurationError {
            ConfigurationError(file: file, line: node?.mark?.line, column: node?.mark?.column, key: key.isEmpty ? nil : key, message: message)
        }

        mutating func mapping(_ node: Node, key: String, allowed: Set<String>) throws(ConfigurationError) -> [String: Node] {
            guard let mapping = node.mapping else { throw fail(node, key, "expected a mapping of keys to values") }
            var result: [String: Node] = [:]
            for (name, value) in mapping {
                guard let text = name.string else { throw fail(name, key, "a key must be text") }
                let path = key.isEmpty ? text : key + "." + text
                guard allowed.contains(text) else {
                    throw fail(name, path, "unknown key “\(text)”; the keys here are \(allowed.sorted().joined(separator: ", "))")
                }
                marks[path] = name.mark.map { ($0.line, $0.column) }
                result[text] = value
            }
            return result
        }

        /// A mapping whose keys are names (tables, labels, values), in the file's order.
        mutating func entries(_ node: Node?, key: String) throws(ConfigurationError) -> [(String, Node)] {
            guard let node else { return [] }
            guard let mapping = node.mapping else { throw fail(node, key, "expected a mapping") }
            var result: [(String, Node)] = []
            for (name, value) in mapping {
                guard let text = name.string else { throw fail(name, key, "a key must be text") }
                marks[key + "." + text] = name.mark.map { ($0.line, $0.column) }
                result.append((text, value))
            }
            return result
        }

        func string(_ node: Node, key: String) throws(ConfigurationError) -> String {
            guard let scalar = node.scalar else { throw fail(node, key, "expected text") }
            return scalar.string
        }

        func strings(_ node: Node, key: String) throws(ConfigurationError) -> [String] {
            if let scalar = node.scalar { return [scalar.string] }
            guard let sequence = node.sequence else { throw fail(node, key, "expected a list of names") }
            var result: [String] = []
            for item in sequence {
                guard let scalar = item.scalar else { throw fail(item, key, "expected a name") }
                result.append(scalar.string)
            }
            return result
        }

        func positiveInteger(_ node: Node, key: String) throws(ConfigurationError) -> Int {
            guard let text = node.scalar?.string, let value = Int(text), value >= 1 else {
                throw fail(node, key, "expected a whole number of 1 or more")
            }
            return value
        }

        mutating func table(_ node: Node, key: String) throws(ConfigurationError) -> Table {
            let keys = try mapping(
                node, key: key,
                allowed: [
                    "title", "description", "columns", "labels", "label", "sort", "page_size", "sections", "cells", "search", "layout", "facets",
                    "writable", "order", "secret",
                ])
            var table = Table()
            if let value = keys["title"] { table.title = try string(value, key: key + ".title") }
            if let value = keys["description"] { table.description = try string(value, key: key + ".description") }
            if let value = keys["columns"] { table.columns = try strings(value, key: key + ".columns") }
            for (name, value) in try entries(keys["labels"], key: key + ".labels") {
                table.labels[name] = try string(value, key: key + ".labels." + name)
            }
            if let value = keys["label"] { table.labelColumn = try string(value, key: key + ".label") }
            if let value = keys["sort"] { table.sort = try strings(value, key: key + ".sort") }
            if let value = keys["page_size"] { table.pageSize = try positiveInteger(value, key: key + ".page_size") }
            if let value = keys["sections"] { table.sections = try string(value, key: key + ".sections") }
            if let value = keys["order"] { table.order = try string(value, key: key + ".order") }
            if let value = keys["facets"] { table.facets = try strings(value, key: key + ".facets") }
            if let value = keys["secret"] { table.secret = try strings(value, key: key + ".secret") }
            if let value = keys["writable"] {
                switch value.scalar?.string {
                case "true": table.writable = true
                case "false": table.writable = false
                default: throw fail(value, key + ".writable", "expected true or false")
                }
            }
            if let value = keys["layout"] {
                let name = try string(value, key: key + ".layout")
                guard let layout = Layout(rawValue: name) else { throw fail(value, key + ".layout", "expected cells or columns") }
                table.layout = layout
            }
            if let value = keys["cells"] {
                let cellKey = key + ".cells"
                let rules = try mapping(value, key: cellKey, allowed: ["column", "when", "default"])
                guard let column = rules["column"] else { throw fail(value, cellKey, "cells needs a column to choose by") }
                var when: [String: String] = [:]
                for (match, cell) in try entries(rules["when"], key: cellKey + ".when") {
                    when[match] = try string(cell, key: cellKey + ".when." + match)
                }
                table.cells = CellRules(
                    column: try string(column, key: cellKey + ".column"), when: when,
                    defaultCell: try rules["default"].map { node throws(ConfigurationError) in try string(node, key: cellKey + ".default") })
            }
            if let value = keys["search"] { table.search = try search(value, key: key + ".search") }
            return table
        }

        /// A canned query: `sql`, and a `title` and `description` if any; its name makes a path.
        mutating func query(_ node: Node, name: String, key: String) throws(ConfigurationError) -> CannedQuery {
            let keys = try mapping(node, key: key, allowed: ["sql", "title", "description"])
            let isPathSegment =
                !name.isEmpty
                && name.utf8.allSatisfy { byte in
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                }
            guard isPathSegment else { throw fail(node, key, "a query's name is its path, /-/queries/{name}: letters, digits, _ and - only") }
            guard let sql = keys["sql"] else { throw fail(node, key, "a query needs its sql") }
            var query = CannedQuery(name: name, sql: try string(sql, key: key + ".sql"))
            if let value = keys["title"] { query.title = try string(value, key: key + ".title") }
            if let value = keys["description"] { query.description = try string(value, key: key + ".description") }
            return query
        }

        /// `search: false`, `search: true`, or a mapping of `index`, `column` and `configuration`.
        mutating func search(_ node: Node, key: String) throws(ConfigurationError) -> Search {
            var search = Search()
            if let scalar = node.scalar {
                switch scalar.string {
                case "false": search.enabled = false
                case "true": break
                default: throw fail(node, key, "expected false, true, or a mapping of index, column and configuration")
                }
                return search
            }
            let keys = try mapping(node, key: key, allowed: ["index", "column", "configuration"])
            if let value = keys["index"] { search.index = try string(value, key: key + ".index") }
            if let value = keys["column"] { search.column = try string(value, key: key + ".column") }
            if let value = keys["configuration"] { search.configuration = try string(value, key: key + ".configuration") }
            if search.index != nil, search.column != nil { throw fail(node, key, "name an index or a column, not both") }
            return search
        }
    }
}

/// A configuration that cannot be used: where, and why.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let line: Int?
    public let column: Int?
    /// The key at fault, as a path (`tables.items.sort`).
    public let key: String?
    public let message: String

    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return "\(place): " + (key.map { "\($0): " } ?? "") + message
    }
}
