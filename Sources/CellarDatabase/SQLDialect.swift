import ByteWriters
import Cellar

/// The SQL that SQLite and PostgreSQL write differently, for the list code's queries: everything
/// else they share. Identifiers are quoted the same way in both (``quotedIdentifier(_:)``).
enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// `a IS b` with b bound: true when both are NULL or both equal (PostgreSQL's `IS` takes only
    /// NULL, TRUE, FALSE and UNKNOWN).
    func isSame(_ expression: String) -> String {
        switch self {
        case .sqlite: "\(expression) IS ?"
        case .postgres: "\(expression) IS NOT DISTINCT FROM ?"
        }
    }

    /// Whether a column's value, as text, contains the bound text.
    func contains(_ expression: String) -> String {
        switch self {
        case .sqlite: "instr(\(expression), ?) > 0"
        // `::text`: strpos takes text, and SQLite's instr reads a number as its text too.
        case .postgres: "strpos((\(expression))::text, ?) > 0"
        }
    }

    /// Whether a column's value, as text, contains the bound text, ASCII letters of either case
    /// matching (SQLite's `lower` folds ASCII alone; PostgreSQL's folds by locale, so it is told
    /// the ASCII letters). `%` and `_` are plain characters: no `LIKE` pattern is involved.
    func containsIgnoringCase(_ expression: String) -> String {
        switch self {
        case .sqlite: "instr(lower(\(expression)), lower(?)) > 0"
        case .postgres:
            "strpos(translate((\(expression))::text, \(Self.upperASCII), \(Self.lowerASCII)), translate(?::text, \(Self.upperASCII), \(Self.lowerASCII))) > 0"
        }
    }

    /// Whether a column's value, as text, starts with the bound text (case and `%`, `_` as
    /// written: no `LIKE` pattern is involved).
    func startsWith(_ expression: String) -> String {
        switch self {
        case .sqlite: "instr(\(expression), ?) = 1"
        case .postgres: "strpos((\(expression))::text, ?) = 1"
        }
    }

    private static let upperASCII = "'ABCDEFGHIJKLMNOPQRSTUVWXYZ'"
    private static let lowerASCII = "'abcdefghijklmnopqrstuvwxyz'"

    /// An `ORDER BY` term with NULL as the smallest value, as SQLite sorts it: first ascending,
    /// last descending. PostgreSQL sorts NULL as the largest, so it is told; a column that holds
    /// no NULL is left plain, so that an index on it serves the order.
    func orderTerm(_ expression: String, ascending: Bool, notNull: Bool) -> String {
        guard self == .postgres, !notNull else { return expression + (ascending ? " ASC" : " DESC") }
        return expression + (ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST")
    }

    /// The condition that keeps no row.
    var noRows: String {
        switch self {
        case .sqlite: "0"
        case .postgres: "FALSE"
        }
    }

    /// The SELECT of the labels of a table's rows whose keys are in one bound list (``keyList(_:)``):
    /// SQLite reads a JSON array with `json_each`, PostgreSQL an array of the key's type.
    func labelQuery(key: String, title: String, table: String) -> String {
        switch self {
        case .sqlite: "SELECT \(key), \(title) FROM \(table) WHERE \(key) IN (SELECT value FROM json_each(?))"
        case .postgres: "SELECT \(key), \(title) FROM \(table) WHERE \(key) = ANY(?)"
        }
    }

    /// The keys for ``labelQuery(key:title:table:)``'s parameter: a JSON array for SQLite; for
    /// PostgreSQL an array literal (`{"1","2"}`, each element quoted, `"` and `\` escaped), which
    /// the server reads as an array of the key column's type.
    func keyList(_ keys: [DatabaseValue]) -> DatabaseValue {
        switch self {
        case .sqlite:
            var json = JSONWriter()
            json.raw("[")
            for (index, value) in keys.enumerated() {
                if index > 0 { json.raw(",") }
                switch value {
                case .integer(let integer): json.number(Int(integer))
                case .real(let real): json.number(real)
                case .text(let text): json.string(text)
                case .null, .blob: json.null()
                }
            }
            json.raw("]")
            return .text(String(decoding: json.takeBytes(), as: UTF8.self))
        case .postgres:
            var literal = "{"
            for (index, value) in keys.enumerated() {
                if index > 0 { literal += "," }
                guard let text = value.postgresText else {
                    literal += "NULL"
                    continue
                }
                literal += "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
            }
            return .text(literal + "}")
        }
    }
}
