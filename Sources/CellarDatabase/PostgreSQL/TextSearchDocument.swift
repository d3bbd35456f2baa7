/// What a PostgreSQL table's full-text search matches: a `tsvector` column, or the expression of
/// an index over `to_tsvector(configuration, …)`. A search is `document @@ plainto_tsquery(…)`.
///
/// An index's expression is used as `pg_get_indexdef` writes it, so that the query's expression
/// is the index's and the planner can use the index.
public struct TextSearchDocument: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// A column of type `tsvector`, by name.
        case column(String)
        /// An expression index over `to_tsvector(…)`, by the index's name.
        case index(String)
    }

    public let source: Source
    /// The SQL a search matches: the quoted column, or the index's expression.
    public let expression: String
    /// The text-search configuration the expression names (`to_tsvector('english'::regconfig, …)`
    /// → `english`), which the query is parsed with too; nil for a column, whose values may have
    /// been made with any.
    public let configuration: String?

    public init(source: Source, expression: String, configuration: String?) {
        self.source = source
        self.expression = expression
        self.configuration = configuration
    }

    /// A `tsvector` column's document.
    init(column: String) {
        self.init(source: .column(column), expression: quotedIdentifier(column), configuration: nil)
    }

    /// An index's document, or nil when its expression is not a `to_tsvector(…)` call, or holds a
    /// `?`, which the list code's statements read as a parameter (``PostgresReader``).
    init?(index: String, expression: String) {
        let call = "to_tsvector("
        guard expression.hasPrefix(call), expression.hasSuffix(")"), !expression.contains("?") else { return nil }
        self.init(source: .index(index), expression: expression, configuration: Self.configuration(in: expression.dropFirst(call.count)))
    }

    /// The configuration a `to_tsvector(` call's arguments start with: `'english'::regconfig, …`.
    static func configuration(in arguments: Substring) -> String? {
        guard arguments.hasPrefix("'"), let end = arguments.dropFirst().firstIndex(of: "'") else { return nil }
        guard arguments[end...].hasPrefix("'::regconfig,") else { return nil }
        return String(arguments[arguments.index(after: arguments.startIndex)..<end])
    }

    /// The name it is configured by (`search: {column: …}` or `{index: …}`), for messages.
    public var name: String {
        switch source {
        case .column(let name), .index(let name): name
        }
    }
}
