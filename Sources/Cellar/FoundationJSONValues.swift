import ByteWriters
import FoundationEssentials

/// Foundation's types as `JSONEncoder` writes them, for ``JSONItemEncoder``: `Date` as an ISO 8601
/// string, `URL` as its absolute string, `Decimal` as a number (its own `Codable` is its internal
/// fields), `Data` as base64.
enum FoundationJSONValues: JSONSpecialValues {
    static func write<Value: Encodable>(_ value: Value, into writer: inout JSONWriter) -> Bool {
        // Comparing metadata is a pointer compare, far cheaper than a dynamic cast per value: the
        // cast runs only for the type it names.
        if Value.self == Date.self, let date = value as? Date {
            writer.string(date.formatted(.iso8601))
        } else if Value.self == URL.self, let url = value as? URL {
            writer.string(url.absoluteString)
        } else if Value.self == Decimal.self, let decimal = value as? Decimal {
            if decimal.isNaN { writer.null() } else { writer.unsafeRaw(decimal.description) }
        } else if Value.self == Data.self, let data = value as? Data {
            writer.string(data.base64EncodedString())
        } else {
            return false
        }
        return true
    }
}
