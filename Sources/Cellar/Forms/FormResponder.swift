import ByteWriters
import FoundationEssentials
import MicroHTTP
import TableKit

/// Answers a form's path (``App/form(_:title:limits:_:submit:)``): a GET shows the form; a POST
/// reads the body (``FormSubmission``), checks each field, decodes the value and hands it to the
/// app. Checked and kept, a browser is sent on (303) and a JSON client gets the value; refused, a
/// browser gets the form again (422) with the values it sent and each message on its field, and a
/// JSON client `{"error", "fields"}`.
struct FormResponder<Value: Decodable>: Sendable {
    let path: String
    let title: String
    let limits: FormLimits
    let makeForm: @Sendable (Request) throws -> any FormController
    let submit: @Sendable (Value, Request) throws -> FormResult
    let app: App.Snapshot

    func respond(to request: Request) throws -> Response {
        try app.guardingHandler(of: request, at: path) {
            let form = FormTable(try makeForm(request))
            guard request.method == .post else {
                return try FormPage(title: title, path: path, action: FormPage.action(of: request), form: form, errors: [:]).response(
                    status: .ok, site: app.siteLayout(for: request), registry: app.registry)
            }
            return try post(request, form: form)
        }
    }

    private func post(_ request: Request, form: FormTable) throws -> Response {
        let submission: FormSubmission
        switch Result(catching: { () throws(HTTPError) -> FormSubmission in try FormSubmission(request, form: form, limits: limits) }) {
        case .success(let read):
            submission = read
        case .failure(let error):
            guard FormSubmission.isJSON(request) else { throw error }
            // A script that posted JSON reads JSON, whatever its Accept says.
            var asksForJSON = request
            asksForJSON.headers.replaceOrAdd(name: "Accept", value: "application/json")
            return ErrorPages.response(for: error, request: asksForJSON, site: app.siteLayout(for: request))
        }
        let answersJSON = submission.isJSON || request.prefersJSON
        var fields: [String: FormField] = [:]
        for field in form.fields { fields[field.name] = field }
        var errors: [String: String] = [:]
        for field in form.fields {
            if let message = field.validationMessage(for: submission.values[field.name]) { errors[field.name] = message }
        }
        var value: Value?
        var status = HTTPStatus.unprocessableContent
        var action = FormPage.action(of: request)
        if errors.isEmpty {
            do {
                value = try Value(from: FormValueDecoder(values: submission.values, fields: fields))
            } catch let error as DecodingError {
                errors = try Self.messages(for: error, fields: fields, valueType: Value.self)
            }
        }
        // The app's handler apart from the decoding: a DecodingError of its own is no field's.
        if let value {
            do {
                let result = try submit(value, request)
                return answersJSON ? try Self.jsonSuccess(value, submission: submission, result: result) : .redirect(to: result.location)
            } catch let error as FormValidationError where !error.messages.isEmpty {
                errors = error.messages
                status = error.status
                if let given = error.action { action = given }
            }
        }
        if answersJSON {
            var response = Self.jsonErrors(errors, form: form)
            response.status = status
            return response
        }
        let shown = form.filled(values: submission.values, errors: errors)
        return try FormPage(title: title, path: path, action: action, form: shown, errors: errors).response(
            status: status, site: app.siteLayout(for: request), registry: app.registry)
    }

    /// The field a decoding error is about, with a message that says what to fix; an error about a
    /// property the form has no field for is the app's mistake, and stays an error (a 500, logged).
    static func messages(for error: DecodingError, fields: [String: FormField], valueType: Any.Type) throws -> [String: String] {
        let key: (any CodingKey)?
        let isMissing: Bool
        switch error {
        case .keyNotFound(let missing, let context):
            key = context.codingPath.first ?? missing
            isMissing = context.codingPath.isEmpty
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            key = context.codingPath.first
            isMissing = false
        @unknown default:
            key = nil
            isMissing = false
        }
        guard let name = key?.stringValue, let field = fields[name] else {
            throw FormDefinitionError.valueDoesNotMatchForm(valueType: String(reflecting: valueType), reason: String(describing: error))
        }
        return [name: isMissing ? "\(field.label) is required." : "\(field.label) is not valid."]
    }

    /// 201 or 200 with the value as JSON (the fields' text, for a value that is not `Encodable`) and `Location`.
    static func jsonSuccess(_ value: Value, submission: FormSubmission, result: FormResult) throws -> Response {
        var json = JSONWriter(capacity: 512)
        if let encodable = value as? any Encodable {
            try JSONItemEncoder(specialValues: FoundationJSONValues.self).encode(encodable, into: &json)
        } else {
            json.raw("{")
            for (index, (name, text)) in submission.values.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { json.raw(",") }
                json.key(name)
                json.string(text)
            }
            json.raw("}")
        }
        json.raw("\n")
        return Response(
            status: result.jsonStatus, headers: ["Content-Type": "application/json", "Location": result.location, "Cache-Control": "no-store"],
            body: .storage(json.takeStorage()))
    }

    /// 422 `{"error": "…", "fields": {name: message}}`, the fields in the form's order.
    static func jsonErrors(_ errors: [String: String], form: FormTable) -> Response {
        let ordered = FormPage.ordered(errors, form: form)
        var json = JSONWriter(capacity: 512)
        json.raw("{")
        json.key("error")
        json.string(FormPage.summaryTitle(count: ordered.count))
        json.member("fields")
        json.raw("{")
        for (index, error) in ordered.enumerated() {
            if index > 0 { json.raw(",") }
            json.key(error.name)
            json.string(error.message)
        }
        json.raw("}}\n")
        return Response(
            status: .unprocessableContent, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: .storage(json.takeStorage()))
    }
}

/// A form that does not fit together: the app's mistake, not the person's.
enum FormDefinitionError: Error, CustomStringConvertible {
    case valueDoesNotMatchForm(valueType: String, reason: String)
    case duplicateFieldName(String)
    case fieldWithoutName(label: String)

    var description: String {
        switch self {
        case .valueDoesNotMatchForm(let valueType, let reason):
            "\(valueType) cannot be decoded from this form (each stored property needs a field of its name): \(reason)"
        case .duplicateFieldName(let name): "two fields are named '\(name)': each field's name is its key in the body, give each its own"
        case .fieldWithoutName(let label): "the field '\(label)' has an empty name: give it the name of the property it decodes into"
        }
    }

    /// Throws for a field without a name or two fields of one name.
    static func checkNames(of form: FormTable) throws(FormDefinitionError) {
        var names = Set<String>()
        for field in form.fields {
            guard !field.name.isEmpty else { throw .fieldWithoutName(label: field.label) }
            guard names.insert(field.name).inserted else { throw .duplicateFieldName(field.name) }
        }
    }
}
