/// What a list's `q=` searches, settled when the list is made: SQLite's FTS5 index, or a
/// PostgreSQL text-search document. Either keeps the rows that hold every word of the search, in
/// the list's own order (no ranking), so that a search pages by keyset as any filter does.
enum TableSearch: Sendable {
    case fts5(SearchIndex)
    /// `document @@ plainto_tsquery(configuration, words)`; without a configuration, the
    /// one-argument form (the server's `default_text_search_config`).
    case textSearch(TextSearchDocument, configuration: String?)

    /// The search `settings` choose among what `schema` has (the table's own when they choose
    /// none), or nil for none.
    ///
    /// - Throws: ``ConfigurationError`` for settings naming what the table does not have, or what
    ///   its engine does not use (a `tsvector` column in SQLite).
    static func resolve(
        schema: TableSchema, settings: DatabaseConfiguration.Search?, dialect: SQLDialect, in file: DatabaseConfiguration
    ) throws(ConfigurationError) -> TableSearch? {
        let key = "tables.\(schema.name).search"
        guard settings?.enabled ?? true else { return nil }
        switch dialect {
        case .sqlite:
            for (name, value) in [("column", settings?.column), ("configuration", settings?.configuration)] where value != nil {
                throw file.error(
                    key + "." + name,
                    "\(name) applies to PostgreSQL's text search; SQLite searches the FTS5 table that indexes \(schema.name) (search: {index: …})")
            }
            guard let index = schema.searchIndex else {
                if let name = settings?.index { throw file.error(key + ".index", "no FTS5 table “\(name)” indexes \(schema.name)") }
                return nil
            }
            if let name = settings?.index, !index.table.sqliteNameEquals(name) {
                throw file.error(key + ".index", "the FTS5 table that indexes \(schema.name) is “\(index.table)”, not “\(name)”")
            }
            return .fts5(index)
        case .postgres:
            let documents = schema.textSearch
            var chosen = documents.first
            if let name = settings?.column {
                chosen = documents.first { $0.source == .column(name) }
                guard chosen != nil else {
                    throw file.error(key + ".column", "\(schema.name) has no tsvector column “\(name)”\(Self.choices(documents))")
                }
            } else if let name = settings?.index {
                chosen = documents.first { $0.source == .index(name) }
                guard chosen != nil else {
                    throw file.error(key + ".index", "\(schema.name) has no index “\(name)” over to_tsvector(…)\(Self.choices(documents))")
                }
            }
            guard let document = chosen else {
                if settings?.configuration != nil {
                    throw file.error(key, "\(schema.name) has no tsvector column and no index over to_tsvector(…) to search")
                }
                return nil
            }
            return .textSearch(document, configuration: settings?.configuration ?? document.configuration)
        }
    }

    private static func choices(_ documents: [TextSearchDocument]) -> String {
        guard !documents.isEmpty else { return "; it has no tsvector column and no index over to_tsvector(…)" }
        return "; it has "
            + documents.map { document in
                switch document.source {
                case .column(let name): "the column \(name)"
                case .index(let name): "the index \(name)"
                }
            }.joined(separator: ", ")
    }

    /// The condition that keeps the rows holding every word in `words` (whole words, none empty,
    /// no NUL), and its values. `table` is the list's quoted name.
    func condition(words: [String], table: String) -> (condition: String, values: [DatabaseValue]) {
        switch self {
        case .fts5(let index):
            // Each word quoted: searched for as written, never read as FTS5 syntax (`OR`, `NEAR(`, `col:`, `*`).
            let match = words.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }.joined(separator: " ")
            // `rowid` unquoted: quoted, a name no column has would be read as a string.
            let rowID = table + "." + (index.contentRowID.lowercased() == "rowid" ? "rowid" : quotedIdentifier(index.contentRowID))
            let searchTable = quotedIdentifier(index.table)
            return ("\(rowID) IN (SELECT rowid FROM \(searchTable) WHERE \(searchTable) MATCH ?)", [.text(match)])
        case .textSearch(let document, let configuration):
            // plainto_tsquery: the words ANDed, punctuation ignored, no operator read (`|`, `!`,
            // `:*`, quotes) — as SQLite's quoted words. It never fails to parse.
            let words = DatabaseValue.text(words.joined(separator: " "))
            guard let configuration else { return ("(\(document.expression)) @@ plainto_tsquery(?)", [words]) }
            return ("(\(document.expression)) @@ plainto_tsquery(?::regconfig, ?)", [.text(configuration), words])
        }
    }
}
