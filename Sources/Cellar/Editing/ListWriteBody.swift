import ByteWriters
import MicroHTTP

/// The body of a write to an app's own list through the JSON write API, in Datasette 1.0's shape:
/// `{"row": {…}}` for an insert or `{"update": {…}}` for an update, and `"return": true` for the
/// row back. The row's members become the text a form's fields would send (a number as its
/// digits, `true` as `1`, `null` as empty), so the controller's `commit` reads them as it reads a
/// form's. Read strictly by a ``JSONReader``: a member the API does not take is a 400 naming it,
/// and so is a value no field holds (an array or an object).
struct ListWriteBody {
    /// The row's fields as a form's text, by name.
    var fields: [String: String]
    /// Whether the answer carries the row written.
    var returnsRow: Bool

    /// Reads `bytes`, whose row is the member `rowMember` (`row` or `update`).
    init(_ bytes: [UInt8], rowMember: String) throws(HTTPError) {
        guard !bytes.isEmpty else { throw .badRequest("The body is empty: send JSON, such as {\"\(rowMember)\": {…}}.") }
        var json = JSONReader(bytes)
        var fields: [String: String]?
        var returnsRow = false
        do {
            guard try json.peek() == .object else {
                throw HTTPError.badRequest("The body is not a JSON object: send one, such as {\"\(rowMember)\": {…}}.")
            }
            try json.readObject { json, name in
                switch name {
                case rowMember: fields = try Self.readRow(&json, at: name)
                case "return":
                    guard try json.peek() == .bool else { throw HTTPError.badRequest("The body’s “return” is not true or false.") }
                    returnsRow = try json.readBool()
                case "rows" where rowMember == "row":
                    throw HTTPError.badRequest("This list takes one row at a time: send {\"row\": {…}}, not “rows”.")
                default:
                    throw HTTPError.badRequest(
                        "The body has “\(name.prefix(80))”, which this API does not take: it takes “\(rowMember)” and “return”.")
                }
            }
            try json.finish()
        } catch let error as HTTPError {
            throw error
        } catch let failure as JSONReader.Failure {
            if case .duplicateName(let name) = failure.reason {
                throw .badRequest("The body names “\(name.prefix(80))” twice in one object: send each member once.")
            }
            throw .badRequest("The body is not valid JSON.")
        } catch {
            throw .badRequest("The body is not valid JSON.")
        }
        guard let fields else { throw .badRequest("The body has no “\(rowMember)”.") }
        self.fields = fields
        self.returnsRow = returnsRow
    }

    /// A row's object of field names and values, each as the text a form would send.
    private static func readRow(_ json: inout JSONReader, at path: String) throws -> [String: String] {
        guard try json.peek() == .object else { throw HTTPError.badRequest("The body’s “\(path)” is not an object of the row’s fields.") }
        var row: [String: String] = [:]
        try json.readObject { json, name in
            switch try json.peek() {
            case .null:
                try json.readNull()
                row[name] = ""
            case .bool: row[name] = try json.readBool() ? "1" : "0"
            case .string: row[name] = try json.readString()
            case .number:
                switch try json.readNumber() {
                case .integer(let integer): row[name] = String(integer)
                case .real(let real): row[name] = String(real)
                }
            case .array, .object:
                throw HTTPError.badRequest("The field “\(name.prefix(80))” must be a string, a number, true, false or null.")
            }
        }
        return row
    }
}
