import ByteWriters
import MicroHTTP

/// The body of a write to an app's own list through the JSON write API, in Datasette 1.0's shape:
/// `{"row": {…}}` or `{"rows": […]}` for an insert or an upsert (and `"section"`, where inserted
/// rows go), `{"update": {…}}` for an update, and `"return": true` for the rows back. A row's
/// members become the text a form's fields would send (a number as its digits, `true` as `1`,
/// `null` as empty), so the controller's `commit` reads them as it reads a form's. Read strictly
/// by a ``JSONReader``: a member the API does not take is a 400 naming it, and so is a value no
/// field holds (an array or an object), and a `"rows"` longer than the limit.
struct ListWriteBody {
    /// The section a row is inserted into, as the body names it.
    enum Section: Equatable {
        /// Its number, counted from 0 (the JSON list's section `"index"`).
        case index(Int)
        /// Its identifier (the JSON list's section `"id"`, the insert row's `_section`) or its header's title.
        case name(String)
    }

    /// Each row's fields as a form's text, by name, in the order sent.
    var rows: [[String: String]]
    /// Whether the rows came as `"rows"` (a batch), so that a refusal names the row by its index.
    var isBatch: Bool
    /// Whether the answer carries the rows written.
    var returnsRows: Bool
    /// Where inserted rows go; nil for the first section with an insert row.
    var section: Section?

    /// Reads `bytes` as the body of `kind`: at most `maxRows` rows.
    init(_ bytes: [UInt8], kind: ListWriteResponder.Kind, maxRows: Int) throws(HTTPError) {
        let rowMember = kind == .update ? "update" : "row"
        guard !bytes.isEmpty else { throw .badRequest("The body is empty: send JSON, such as {\"\(rowMember)\": {…}}.") }
        let takes =
            kind == .update ? "“update” and “return”" : "“row” or “rows”, “return” and “section”"
        var json = JSONReader(bytes)
        var single: [String: String]?
        var many: [[String: String]]?
        var returnsRows = false
        var section: Section?
        do {
            guard try json.peek() == .object else {
                throw HTTPError.badRequest("The body is not a JSON object: send one, such as {\"\(rowMember)\": {…}}.")
            }
            try json.readObject { json, name in
                switch name {
                case rowMember: single = try Self.readRow(&json, at: name)
                case "rows" where kind != .update:
                    guard try json.peek() == .array else { throw HTTPError.badRequest("The body’s “rows” is not an array of rows.") }
                    var rows: [[String: String]] = []
                    try json.readArray { json, index in
                        guard index < maxRows else {
                            throw HTTPError.badRequest("Too many rows: more than \(maxRows); at most \(maxRows) in one request.")
                        }
                        rows.append(try Self.readRow(&json, at: "rows[\(index)]"))
                    }
                    many = rows
                case "section" where kind != .update:
                    switch try json.peek() {
                    case .number:
                        guard case .integer(let index) = try json.readNumber() else {
                            throw HTTPError.badRequest("The body’s “section” is not a whole number or a section’s name.")
                        }
                        section = .index(Int(index))
                    case .string: section = .name(try json.readString())
                    default: throw HTTPError.badRequest("The body’s “section” is not a whole number or a section’s name.")
                    }
                case "return":
                    guard try json.peek() == .bool else { throw HTTPError.badRequest("The body’s “return” is not true or false.") }
                    returnsRows = try json.readBool()
                case "ignore" where kind == .insert, "replace" where kind == .insert:
                    throw HTTPError.badRequest(
                        "This list gives its rows their ids, so an insert never meets a row it would “\(name)”: send the row alone, or use /-/upsert to change a row by its “id”."
                    )
                default:
                    throw HTTPError.badRequest("The body has “\(name.prefix(80))”, which this API does not take: it takes \(takes).")
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
        switch (single, many) {
        case (let row?, nil): rows = [row]
        case (nil, let batch?):
            guard !batch.isEmpty else { throw .badRequest("“rows” is empty.") }
            rows = batch
        case (nil, nil): throw .badRequest(kind == .update ? "The body has no “update”." : "The body has neither “row” nor “rows”.")
        case (_?, _?): throw .badRequest("The body has both “row” and “rows”: send one.")
        }
        isBatch = many != nil
        self.returnsRows = returnsRows
        self.section = section
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
                do {
                    switch try json.readNumber() {
                    case .integer(let integer): row[name] = String(integer)
                    case .real(let real): row[name] = String(real)
                    }
                } catch let failure as JSONReader.Failure where failure.reason == .numberOutOfRange {
                    throw HTTPError.badRequest(
                        "The field “\(name.prefix(80))” of “\(path)” has a number too large for any field (past a double’s range).")
                }
            case .array, .object:
                throw HTTPError.badRequest("The field “\(name.prefix(80))” of “\(path)” must be a string, a number, true, false or null.")
            }
        }
        return row
    }
}
