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
            ? [tildeDecoded(Substring(identifier))]
            : identifier.split(separator: ",", omittingEmptySubsequences: false).map(tildeDecoded)
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

    /// `text` with each `~XX` (two hex digits) made the byte it stands for; a `~` not followed by
    /// two hex digits stays as it is.
    static func tildeDecoded(_ text: Substring) -> String {
        guard text.contains("~") else { return String(text) }
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "~"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
