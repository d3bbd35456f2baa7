import FoundationEssentials

/// One value of a row as a client sends it in JSON: what a column can hold. A blob is
/// `{"$base64": "…"}`, as a row's JSON writes one; an array or another object is refused.
enum JSONInputValue: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// Why a value could not be read, for the 400 that says so.
    struct Refusal: Error {
        let message: String
    }

    private struct Base64Blob: Decodable {
        let base64: String
        enum CodingKeys: String, CodingKey { case base64 = "$base64" }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Text first, then numbers: each kind tried and missed costs a thrown `DecodingError`, and
        // text and integers are what rows mostly hold.
        if container.decodeNil() {
            self = .null
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let real = try? container.decode(Double.self) {
            self = .real(real)
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let blob = try? container.decode(Base64Blob.self) {
            guard let data = Data(base64Encoded: blob.base64) else { throw Refusal(message: "A “$base64” value is not base64.") }
            self = .blob(Array(data))
        } else {
            throw Refusal(message: "A value is an array or an object: a column takes text, a number, true, false, null or {\"$base64\": \"…\"}.")
        }
    }

    /// The value to bind for `column`, by its type: text that is a number for a number column
    /// becomes that number (as a form sends it); other text there is refused.
    func databaseValue(for column: ColumnSchema) throws -> DatabaseValue {
        switch self {
        case .null: return .null
        case .bool(let bool): return .integer(bool ? 1 : 0)
        case .integer(let integer): return .integer(integer)
        case .real(let real): return .real(real)
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
