/// A column's type affinity: how SQLite converts the values stored in it, found from its declared type.
public enum ColumnAffinity: Sendable, Hashable {
    case integer, text, blob, real, numeric

    /// The affinity of a declared type, by the rules of section 3.1 of SQLite's "Datatypes" page,
    /// tried in order, letters compared case-insensitively: "INT" anywhere gives integer;
    /// "CHAR", "CLOB" or "TEXT", text; "BLOB" or no type, blob; "REAL", "FLOA" or "DOUB", real;
    /// anything else, numeric. So `VARCHAR(20)` is text, `FLOATING POINT` integer ("INT"), `STRING` numeric.
    public init(declaredType: String) {
        let type = declaredType.sqliteFolded
        if type.contains("int") {
            self = .integer
        } else if type.contains("char") || type.contains("clob") || type.contains("text") {
            self = .text
        } else if type.contains("blob") || type.isEmpty {
            self = .blob
        } else if type.contains("real") || type.contains("floa") || type.contains("doub") {
            self = .real
        } else {
            self = .numeric
        }
    }
}
