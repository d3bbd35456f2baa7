import FoundationEssentials
import MicroHTTP
import TableKit

/// A form's POST as text per field: from `application/x-www-form-urlencoded` (what an HTML form
/// sends) or a JSON object, checked against the form's limits. Both end the same way, so one
/// validation and one decoding serve a browser and a script.
struct FormSubmission {
    /// Each field's value as text, by name (a JSON number as its digits, `true` as `1`).
    var values: [String: String]
    /// Whether the body was JSON: the answer is JSON then.
    var isJSON: Bool

    /// Reads `request`'s body for `form`.
    ///
    /// - Throws: ``HTTPError``: 413 for a body over `limits`, 415 for another type (multipart
    ///   included), 400 for a malformed one, too many fields, or a field longer than its
    ///   ``FormField/maxLength`` (naming it).
    init(_ request: Request, form: FormTable, limits: FormLimits) throws(HTTPError) {
        if request.body.count > limits.maxBodySize {
            throw .payloadTooLarge("This form takes at most \(limits.maxBodySize) bytes; the request sent \(request.body.count).")
        }
        let mediaType = Self.mediaType(of: request)
        var fields: [String: FormField] = [:]
        for field in form.fields { fields[field.name] = field }
        if Self.isJSON(request) {
            values = try Self.readJSON(request.body, fields: fields, limits: limits)
            self.isJSON = true
        } else if mediaType == "multipart/form-data" {
            throw HTTPError(
                .unsupportedMediaType,
                "This form does not take multipart/form-data (file uploads): send application/x-www-form-urlencoded, what an HTML form sends without an enctype, or application/json."
            )
        } else {
            let items = try request.formItems()
            values = try Self.readForm(items, fields: fields, limits: limits)
            self.isJSON = false
        }
        for (name, value) in values {
            if let field = fields[name], value.utf16.count > field.maxLength {
                throw .badRequest("The field '\(name)' is longer than \(field.maxLength) characters.")
            }
        }
    }

    /// The body's media type, lowercased, without parameters.
    static func mediaType(of request: Request) -> String? {
        // A media type holds no space: the ones around it are dropped with the parameters.
        request.headers["Content-Type"]?.split(separator: ";", maxSplits: 1).first.map {
            String($0.filter { $0 != " " && $0 != "\t" }).lowercased()
        }
    }

    /// Whether the body is JSON: `application/json` or an `application/…+json` type.
    static func isJSON(_ request: Request) -> Bool {
        guard let type = mediaType(of: request) else { return false }
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    /// A form's items: a switch's last value (its checkbox's `1` after the hidden `0`), any other
    /// field's first; names the form does not have are left out.
    private static func readForm(_ items: QueryItems, fields: [String: FormField], limits: FormLimits) throws(HTTPError) -> [String: String] {
        guard items.count <= limits.maxFieldCount else {
            throw .badRequest("The form sent \(items.count) fields; it takes at most \(limits.maxFieldCount).")
        }
        var values: [String: String] = [:]
        for item in items {
            guard let field = fields[item.name] else { continue }
            if field.kind == .toggle || values[item.name] == nil { values[item.name] = item.value }
        }
        return values
    }

    private static func readJSON(_ body: [UInt8], fields: [String: FormField], limits: FormLimits) throws(HTTPError) -> [String: String] {
        let members: [String: JSONFieldValue]
        do {
            members = try JSONDecoder().decode([String: JSONFieldValue].self, from: Data(body))
        } catch {
            throw .badRequest("The body is not a JSON object of the form's fields, such as {\"name\": \"value\"}.")
        }
        guard members.count <= limits.maxFieldCount else {
            throw .badRequest("The body sent \(members.count) fields; it takes at most \(limits.maxFieldCount).")
        }
        var values: [String: String] = [:]
        for (name, member) in members where fields[name] != nil {
            switch member {
            case .text(let text): values[name] = text
            case .null: break
            case .nested: throw .badRequest("The field '\(name)' must be a string, a number or a boolean.")
            }
        }
        return values
    }
}

/// A JSON member's value as a form field's text: what a browser would have sent for it.
private enum JSONFieldValue: Decodable {
    case text(String)
    case null
    /// An array or an object: no field holds one.
    case nested

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .text(bool ? "1" : "0")
        } else if let integer = try? container.decode(Int.self) {
            self = .text(String(integer))
        } else if let number = try? container.decode(Double.self) {
            self = .text(String(number))
        } else if let string = try? container.decode(String.self) {
            self = .text(string)
        } else {
            self = .nested
        }
    }
}
