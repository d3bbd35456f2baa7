/// One connection, lent to one request for one read, as the list code uses it whatever the engine:
/// a statement run with bound ``DatabaseValue``s, its rows appended to a page, counted, or read as
/// labels. ``Database/read(_:)`` lends one, inside a snapshot and within the query time limit.
///
/// SQL is written once, with `?` placeholders, in the SQL both engines share; where they differ,
/// ``dialect`` says how to write it. A PostgreSQL reader numbers the placeholders (`$1`, `$2`, …)
/// itself.
protocol DatabaseReader {
    var dialect: SQLDialect { get }

    /// Runs `sql` with `values` bound and appends every row it returns to `rows`.
    func appendRows(of sql: String, _ values: [DatabaseValue], to rows: inout FetchedRows) throws

    /// The first column of the first row of `sql`, as an integer (0 when there is no row): a count.
    func integer(_ sql: String, _ values: [DatabaseValue]) throws -> Int

    /// The rows of `sql`, two columns each: a key and its label (rows whose label is NULL are left out).
    func labels(_ sql: String, _ values: [DatabaseValue]) throws -> [DatabaseValue: String]

    /// A name for the data this read sees, equal for any two reads that see the same data, when the
    /// engine has one within the read: PostgreSQL's snapshot. Nil for SQLite, whose version is read
    /// before the read (``Database/currentVersion()``).
    func snapshotVersion() throws -> String?
}
