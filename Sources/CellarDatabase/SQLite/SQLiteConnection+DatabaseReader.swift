extension SQLiteConnection: DatabaseReader {
    var dialect: SQLDialect { .sqlite }

    func appendRows(of sql: String, _ values: [DatabaseValue], to rows: inout FetchedRows) throws {
        let statement = try statement(sql)
        try statement.bind(values)
        while try statement.step() { rows.append(from: statement) }
        statement.reset()
    }

    func integer(_ sql: String, _ values: [DatabaseValue]) throws -> Int {
        let statement = try statement(sql)
        try statement.bind(values)
        defer { statement.reset() }
        return try statement.step() ? Int(statement.int64(0)) : 0
    }

    func labels(_ sql: String, _ values: [DatabaseValue]) throws -> [DatabaseValue: String] {
        let statement = try statement(sql)
        try statement.bind(values)
        defer { statement.reset() }
        var labels: [DatabaseValue: String] = [:]
        while try statement.step() {
            if let label = statement.text(1) { labels[statement.value(0)] = label }
        }
        return labels
    }

    /// Nil: a SQLite file's version is its `data_version`, read before the read.
    func snapshotVersion() throws -> String? { nil }
}
