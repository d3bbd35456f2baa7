import ByteWriters
import MicroHTTP

/// A write API request as the writer needs it: its JSON body decoded, the row key its path names,
/// the version its `If-Match` asks for.
struct WriteRequest {
    let request: Request
    let options: DatabaseOptions

    /// The row identifier the path names (`42`, `a,b`), as sent.
    var identifier: String { request.parameters["key"] ?? "" }

    /// The body as `T`, read from its bytes; a 400 saying what is wrong when it is not one.
    ///
    /// A body that is not JSON is answered as such whatever its first members held: when reading
    /// stops at a member the body does not take, the rest is checked before that is said.
    func decode<T: WriteBody>(_ type: T.Type) throws -> T {
        guard !request.body.isEmpty else { throw RowWriteError.badRequest("The body is empty: send JSON, such as {\"row\": {…}}.") }
        var json = JSONReader(request.body)
        do {
            let body = try T(reading: &json)
            try json.finish()
            return body
        } catch let failure as JSONReader.Failure {
            throw Self.refusal(failure)
        } catch {
            // A number out of range is the reader's to name where it is (a member's); any other fault is the body's.
            let fault: JSONReader.Failure?
            do {
                try JSONReader.validate(request.body)
                fault = nil
            } catch let failure as JSONReader.Failure {
                fault = failure
            }
            if let fault, fault.reason != .numberOutOfRange { throw Self.refusal(fault) }
            throw error
        }
    }

    /// The 400 for a body the reader refused.
    static func refusal(_ failure: JSONReader.Failure) -> RowWriteError {
        switch failure.reason {
        case .syntax: .badRequest("The body is not valid JSON.")
        case .notUTF8: .badRequest("The body is not valid JSON: its text is not UTF-8 at byte \(failure.offset).")
        case .tooDeep(let depth): .badRequest("The body nests arrays and objects more than \(depth) deep.")
        case .duplicateName(let name): .badRequest("The body names “\(name.prefix(80))” twice in one object: send each member once.")
        case .numberOutOfRange: .badRequest("The body has a number too large for a column, at byte \(failure.offset).")
        }
    }

    /// The rows of an insert or upsert: `"row"` or `"rows"`, one of the two, at most
    /// ``DatabaseOptions/maxRowsPerWrite``.
    func rows(single: JSONInputRow?, many: [JSONInputRow]?) throws -> [JSONInputRow] {
        switch (single, many) {
        case (let row?, nil): return [row]
        case (nil, let rows?):
            guard !rows.isEmpty else { throw RowWriteError.badRequest("“rows” is empty.") }
            guard rows.count <= options.maxRowsPerWrite else {
                throw RowWriteError.badRequest("Too many rows: \(rows.count); at most \(options.maxRowsPerWrite) in one request.")
            }
            return rows
        case (nil, nil): throw RowWriteError.badRequest("The body has neither “row” nor “rows”.")
        case (_?, _?): throw RowWriteError.badRequest("The body has both “row” and “rows”: send one.")
        }
    }

    /// The key's values the path names; 404 when it cannot name a row of `list`.
    func key(of list: TableList) throws -> [DatabaseValue] {
        guard let key = RowKey.values(from: identifier, of: list) else {
            throw RowWriteError(.notFound, "\(list.title) has no row “\(identifier.prefix(80))”.")
        }
        return key
    }

    /// The row version `If-Match` names (or, from a row page's form, `?version=`); nil without
    /// one, unless the server requires one (428).
    func expectedVersion() throws -> String? {
        if let field = request.headers["If-Match"] { return field }
        if let version = request.query["version"] { return RowVersion.entityTag(version) }
        try refuseUnversionedWrite()
        return nil
    }

    /// Refuses, with 428, a write that could overwrite a row without naming its version, when the
    /// server requires one (`--require-if-match`).
    func refuseUnversionedWrite() throws {
        guard options.requiresIfMatch, request.headers["If-Match"] == nil, request.query["version"] == nil else { return }
        throw RowWriteError(
            HTTPStatus(code: 428),
            "This server requires If-Match with the row’s version (its page’s ETag) on every change to an existing row.")
    }
}
