/// One column of a table or view, as `PRAGMA table_xinfo` (or PostgreSQL's catalogue) describes it.
public struct ColumnSchema: Sendable, Hashable {
    public let name: String
    /// The type as declared (`VARCHAR(20)`, `INTEGER`); empty when the declaration has none.
    public let declaredType: String
    public let affinity: ColumnAffinity
    /// Whether the declared type names a date or a time (`DATE`, `DATETIME`, `TIMESTAMP`): its
    /// values are kept and compared as text, whatever the affinity. Read once here, as the filters
    /// and every value a write binds ask.
    public let holdsDates: Bool
    /// Declared `NOT NULL`.
    public let notNull: Bool
    /// The column's place in the declared primary key, from 1; 0 when it is not part of it.
    public let primaryKeyPosition: Int
    /// A generated column (`GENERATED ALWAYS AS …`, stored or virtual): read like any other.
    public let isGenerated: Bool
    /// Whether the column's type has an order and an equality of its own. Every SQLite column
    /// has; PostgreSQL's `json`, `xml` and geometric types have not (no default B-tree operator
    /// class), and lists sort, filter and group those by their text, as SQLite keeps JSON.
    public let isOrderable: Bool
    /// The default as the declaration writes it (`0`, `'none'`, `CURRENT_TIMESTAMP`, `nextval('s'::regclass)`); nil when none is declared.
    public let defaultValue: String?
    /// Whether the column keeps every digit of a decimal (PostgreSQL's `numeric`): a value written
    /// to it is bound as the decimal's text, never through a `Double`.
    public let holdsExactDecimals: Bool
    /// Whether the serving role may read it: every SQLite column; a PostgreSQL column unless the
    /// role's grants are on other columns only (`GRANT SELECT (a, b)`). A list keeps one it may
    /// not read secret: it selects `NULL` in its place.
    public let isReadable: Bool

    public init(
        name: String, declaredType: String, notNull: Bool = false, primaryKeyPosition: Int = 0, isGenerated: Bool = false,
        defaultValue: String? = nil
    ) {
        self.init(
            name: name, declaredType: declaredType, affinity: ColumnAffinity(declaredType: declaredType), notNull: notNull,
            primaryKeyPosition: primaryKeyPosition, isGenerated: isGenerated, isOrderable: true, defaultValue: defaultValue,
            holdsExactDecimals: false, isReadable: true)
    }

    /// A column whose affinity is known otherwise than by SQLite's rules (a PostgreSQL column's, by its type).
    public init(
        name: String, declaredType: String, affinity: ColumnAffinity, notNull: Bool = false, primaryKeyPosition: Int = 0,
        isGenerated: Bool = false, isOrderable: Bool = true, defaultValue: String? = nil, holdsExactDecimals: Bool = false,
        isReadable: Bool = true
    ) {
        self.name = name
        self.declaredType = declaredType
        self.affinity = affinity
        let type = declaredType.uppercased()
        holdsDates = type.contains("DATE") || type.contains("TIME")
        self.notNull = notNull
        self.primaryKeyPosition = primaryKeyPosition
        self.isGenerated = isGenerated
        self.isOrderable = isOrderable
        self.defaultValue = defaultValue
        self.holdsExactDecimals = holdsExactDecimals
        self.isReadable = isReadable
    }
}
