extension Database {
    /// Whether Cellar writes to this database: served `--writable` (a SQLite file through its
    /// ``DatabaseWriter``; PostgreSQL as the URL's role, whose grants decide).
    var isWritable: Bool {
        switch engine {
        case .sqlite: writer != nil
        case .postgres: options.writable
        }
    }

    /// The writer of `list`'s table, by the database's engine: the one seam through which the
    /// write API, the schema's forms and editing mode change rows.
    ///
    /// - Throws: a 403 ``RowWriteError`` when the database is served read-only.
    func tableWriter(for list: TableList) throws -> any TableWriting {
        switch engine {
        case .sqlite:
            if let writer { return TableWriter(list: list, writer: writer) }
        case .postgres(let pool):
            if options.writable { return PostgresTableWriter(list: list, pool: pool, timeLimit: options.timeLimit) }
        }
        throw RowWriteError(.forbidden, "This database is served read-only: start Cellar with --writable to change it.")
    }
}
