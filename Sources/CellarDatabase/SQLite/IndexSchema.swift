/// One index of a table, as `PRAGMA index_list` and `index_info` (or PostgreSQL's `pg_index`) describe it.
public struct IndexSchema: Sendable, Hashable {
    /// Why the index is there.
    public enum Origin: String, Sendable, Hashable {
        /// `CREATE INDEX`.
        case created
        /// A `UNIQUE` constraint.
        case unique
        /// The primary key.
        case primaryKey
    }

    public let name: String
    /// What it keys on, in order: a column's name, or an expression's text (`lower(name)`; `<expression>`
    /// where SQLite does not say which).
    public let columns: [String]
    public let isUnique: Bool
    public let origin: Origin
    /// A partial index (`WHERE …`): it holds some rows only.
    public let isPartial: Bool

    public init(name: String, columns: [String], isUnique: Bool, origin: Origin, isPartial: Bool = false) {
        self.name = name
        self.columns = columns
        self.isUnique = isUnique
        self.origin = origin
        self.isPartial = isPartial
    }
}
