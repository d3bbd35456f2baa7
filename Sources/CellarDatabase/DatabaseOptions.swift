/// How a database's lists answer: page sizes, the query time limit, how far rows are counted.
public struct DatabaseOptions: Sendable, Equatable {
    /// Rows on a page when the request names no `limit`.
    public var defaultLimit = 100
    /// The largest `limit` a request may ask for; more is clamped.
    public var maxLimit = 1000
    /// Seconds one query may run before it is interrupted and the request answered 503.
    public var timeLimit = 1.0
    /// Rows counted for a list's total: past it the total says "at least" (`totalIsExact` false),
    /// so a count never makes a page wait on a large table.
    public var countLimit = 10_000
    /// Connections kept open: one per worker thread is enough.
    public var connections = 8
    /// Seconds between two looks for commits by other processes, while any of the database's lists
    /// is watched (``DatabaseChangeMonitor``): at a SQLite file's `data_version`, or at a PostgreSQL
    /// database's snapshot when its change log is not installed (with the log, changes are heard,
    /// not looked for). A change reaches the watchers within about this.
    public var changePollInterval = 0.25
    /// Whether Cellar may write to the database (`--writable`, `CELLAR_WRITABLE`): its tables then
    /// take inserts, updates and deletes from those the permissions allow. Off, Cellar never
    /// writes, and a SQLite file is opened read-only.
    public var writable = false
    /// Whether a write that names no row version (`If-Match`) is refused with 428
    /// (`--require-if-match`) rather than applied last-writer-wins.
    public var requiresIfMatch = false
    /// The most rows one insert or upsert may carry; more is a 400.
    public var maxRowsPerWrite = 100
    /// Whether facet counts (and the columns suggested as facets) are kept per version of the data
    /// and query. Off (`--no-facet-cache`), every faceted page counts afresh: meant for measuring
    /// what the cache saves (`make bench-database`), not for serving.
    public var cachesFacets = true

    public init() {}
}
