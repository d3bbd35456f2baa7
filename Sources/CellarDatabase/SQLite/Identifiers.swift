/// `name` as an SQL identifier in double quotes, each `"` doubled: `we"ird` becomes `"we""ird"`.
///
/// Every table or column name put into SQL text goes through it; values are bound, never written into SQL.
public func quotedIdentifier(_ name: String) -> String {
    // Most names have no quote to double: `replacing` costs a search through the string library
    // (a few per cent of a write, whose statement names every column it sets).
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    return "\"" + name.replacing("\"", with: "\"\"") + "\""
}

extension String {
    /// The name with ASCII letters lowercased: SQLite compares identifiers that way (`Books` and
    /// `BOOKS` are one table; `É` and `é` are two).
    var sqliteFolded: String {
        String(decoding: utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// Whether SQLite takes the two names for the same identifier.
    func sqliteNameEquals(_ other: String) -> Bool {
        sqliteFolded == other.sqliteFolded
    }
}
