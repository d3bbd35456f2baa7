import Cellar

/// Secret columns (YAML `secret: [password_hash]`): a value people may set — a form's secure
/// field, the write API — that nothing Cellar answers carries back. Every read of the list selects
/// `NULL` in the column's place (``TableList/selection``), so a page, its JSON and CSV, a row's
/// detail and version, a write's returned row and an Undo token cannot hold it, whatever code
/// writes them; the outputs that name columns leave it out (``visibleColumns``). What could test a
/// guess against the value — a filter, a sort, a facet, a search index over it — is refused, by
/// name: the start when the configuration asks for it, a 400 when a request does.
extension TableList {
    /// The columns a page, JSON item, CSV record or detail shows: all but the secret ones.
    var visibleColumns: [Int] {
        secretColumns.isEmpty ? Array(columns.indices) : columns.indices.filter { !secretColumns.contains($0) }
    }

    /// Whether the column at `index` is secret.
    func isSecret(_ index: Int) -> Bool { secretColumns.contains(index) }

    /// The secret columns' names.
    var secretColumnNames: [String] { secretColumns.sorted().map { columns[$0].name } }

    /// A request that would compare, order or count by a secret column: each of those is a way
    /// to test a guess against its values.
    static func secretRefusal(_ name: String, for use: String) -> HTTPError {
        HTTPError.badRequest("“\(name.prefix(80))” is a secret column: it cannot be used to \(use).")
    }

    /// The configuration's `secret` columns, by index.
    ///
    /// - Throws: ``ConfigurationError`` for a name the table does not have.
    static func secretColumns(
        of schema: TableSchema, configuration: DatabaseConfiguration.Table?, in file: DatabaseConfiguration
    ) throws(ConfigurationError) -> Set<Int> {
        var secret: Set<Int> = []
        for name in configuration?.secret ?? [] {
            guard let index = schema.columns.firstIndex(where: { $0.name == name }) else {
                throw file.error(
                    "tables.\(schema.name).secret",
                    "\(schema.name) has no column “\(name)”; its columns are \(schema.columns.map(\.name).joined(separator: ", "))")
            }
            secret.insert(index)
        }
        return secret
    }

    /// Why a configured setting cannot name a secret column.
    static func secretMisuse(_ name: String) -> String {
        "“\(name)” is secret: it is never shown, sorted, counted or labelled (remove it here, or from secret)"
    }

    /// A search over a secret column's words would find rows by its value: refused at start.
    static func checkSearch(
        _ search: TableSearch?, reads secret: Set<Int>, of schema: TableSchema, in file: DatabaseConfiguration
    ) throws(ConfigurationError) {
        guard let search, !secret.isEmpty else { return }
        let names = secret.map { schema.columns[$0].name }
        let searched: String?
        switch search {
        case .fts5(let index):
            searched = names.first { name in index.columns.contains { $0.sqliteNameEquals(name) } }
        case .textSearch(let document, _):
            // The document's expression is SQL over the table's columns: a name in it may be read.
            searched = names.first { document.expression.lowercased().contains($0.lowercased()) }
        }
        if let searched {
            throw file.error(
                "tables.\(schema.name).secret",
                "the search of \(schema.name) indexes the secret column “\(searched)”: a search would find rows by its value "
                    + "(index other columns, or turn search off with search: false)")
        }
    }
}
