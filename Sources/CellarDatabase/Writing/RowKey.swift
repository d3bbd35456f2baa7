import ByteWriters

/// A row's key as a write path names it (`/books/42/-/update`): the key's columns' values, in key
/// order, separated by commas; each part may be tilde-encoded as Datasette writes keys (`~2C` for
/// a comma within a part, `~7E` for a tilde), or percent-encoded as Cellar's own links are.
enum RowKey {
    /// The key's values, read by the key columns' types; nil when `identifier` cannot name a row
    /// of `list` (a wrong number of parts, text for an integer key).
    static func values(from identifier: String, of list: TableList) -> [DatabaseValue]? {
        guard list.hasKey else { return nil }
        let parts =
            list.keyColumns.count == 1
            ? [TildeEncoding.decoded(identifier)]
            : identifier.split(separator: ",", omittingEmptySubsequences: false).map { TildeEncoding.decoded($0) }
        guard parts.count == list.keyColumns.count else { return nil }
        return values(ofParts: parts, in: list)
    }

    /// The values of a key's parts, one a key column, read by the columns' types (a rowid as an
    /// integer); nil when one cannot be.
    static func values(ofParts parts: [String], in list: TableList) -> [DatabaseValue]? {
        var values: [DatabaseValue] = []
        for (part, column) in zip(parts, list.keyColumns) {
            if list.schema.keyIsRowID || column >= list.columns.count {
                guard let integer = Int64(part) else { return nil }
                values.append(.integer(integer))
            } else {
                guard let value = try? TableQuery.parse(part, for: list.columns[column]) else { return nil }
                values.append(value)
            }
        }
        return values
    }
}
