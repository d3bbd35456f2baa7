import FoundationEssentials
import MicroHTTP

/// A write API request as the writer needs it: its JSON body decoded, the row key its path names,
/// the version its `If-Match` asks for.
struct WriteRequest {
    let request: Request
    let options: DatabaseOptions

    /// The row identifier the path names (`42`, `a,b`), as sent.
    var identifier: String { request.parameters["key"] ?? "" }

    /// The body as `T`; a 400 saying what is wrong when it is not.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !request.body.isEmpty else { throw RowWriteError.badRequest("The body is empty: send JSON, such as {\"row\": {…}}.") }
        do {
            return try JSONDecoder().decode(T.self, from: Data(request.body))
        } catch let refusal as JSONInputValue.Refusal {
            throw RowWriteError.badRequest(refusal.message)
        } catch let DecodingError.keyNotFound(key, _) {
            throw RowWriteError.badRequest("The body has no “\(key.stringValue)”.")
        } catch let DecodingError.typeMismatch(_, context) {
            let at = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw RowWriteError.badRequest("The body’s “\(at.prefix(200))” is not of the kind expected.")
        } catch {
            throw RowWriteError.badRequest("The body is not valid JSON.")
        }
    }

    /// The rows of an insert or upsert: `"row"` or `"rows"`, one of the two, at most
    /// ``DatabaseOptions/maxRowsPerWrite``.
    func rows(single: [String: JSONInputValue]?, many: [[String: JSONInputValue]]?) throws -> [[String: JSONInputValue]] {
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
