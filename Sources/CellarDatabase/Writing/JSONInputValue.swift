import ByteWriters
import FoundationEssentials

/// A row as a request's body gives it: each member's name and value, in the body's order (a name
/// given twice is refused by the reader).
typealias JSONInputRow = [(name: String, value: JSONInputValue)]

/// One value of a row as a client sends it in JSON: what a column can hold. A blob is
/// `{"$base64": "…"}`, as a row's JSON writes one; an array or another object is refused.
enum JSONInputValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A number no `Int64` holds, and its text as the document writes it.
    case real(Double, text: String)
    case text(String)
    case blob([UInt8])

    /// Reads the next value of `json`; an array, or an object other than `{"$base64": "…"}`, is
    /// a 400 (a column holds neither).
    init(reading json: inout JSONReader) throws {
        switch try json.peek() {
        case .null:
            try json.readNull()
            self = .null
        case .string: self = .text(try json.readString())
        case .number:
            switch try json.readNumberAndText() {
            case (.integer(let integer), _): self = .integer(integer)
            case (.real(let real), let text): self = .real(real, text: text)
            }
        case .bool: self = .bool(try json.readBool())
        case .object:
            var base64: String?
            var other = false
            try json.readObject { json, name in
                if name == "$base64", try json.peek() == .string {
                    base64 = try json.readString()
                } else {
                    other = true
                    try json.skipValue()
                }
            }
            guard let base64, !other else { throw Self.notAColumnValue }
            guard let data = Data(base64Encoded: base64) else { throw RowWriteError.badRequest("A “$base64” value is not base64.") }
            self = .blob(Array(data))
        case .array:
            throw Self.notAColumnValue
        }
    }

    private static let notAColumnValue = RowWriteError.badRequest(
        "A value is an array or an object: a column takes text, a number, true, false, null or {\"$base64\": \"…\"}.")

    /// The value to bind for `column`, by its type: text that is a number for a number column
    /// becomes that number (as a form sends it); other text there is refused. A decimal for a
    /// column that keeps every digit (``ColumnSchema/holdsExactDecimals``) is bound as its text.
    func databaseValue(for column: ColumnSchema) throws -> DatabaseValue {
        switch self {
        case .null: return .null
        case .bool(let bool): return .integer(bool ? 1 : 0)
        case .integer(let integer): return .integer(integer)
        case .real(let real, let text): return column.holdsExactDecimals ? .text(text) : .real(real)
        case .blob(let bytes): return .blob(bytes)
        case .text(let text):
            do {
                return try TableQuery.parse(text, for: column)
            } catch {
                throw RowWriteError.badRequest(error.message, column: column.name)
            }
        }
    }
}
