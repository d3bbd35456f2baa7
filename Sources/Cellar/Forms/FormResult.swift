/// What a form's submit handler answers once it has kept the value: where the browser goes next.
///
/// A browser's form gets a 303 to ``location`` (Post/Redirect/Get: a reload does not post again);
/// a JSON client gets ``jsonStatus`` with the value it sent, as decoded, and `Location`.
public struct FormResult: Sendable {
    /// Where the browser is sent after the POST.
    public var location: String
    /// The status a JSON client gets: 201 for something made, 200 for something changed.
    public var jsonStatus: HTTPStatus

    /// Something new was made at (or is listed at) `location`: a browser goes there, JSON gets 201.
    public static func created(at location: String) -> FormResult {
        FormResult(location: location, jsonStatus: .created)
    }

    /// Something was changed: a browser goes to `location`, JSON gets 200.
    public static func saved(redirectingTo location: String) -> FormResult {
        FormResult(location: location, jsonStatus: .ok)
    }
}

/// Thrown by a form's submit handler when the value decoded but the app refuses it (a date in the
/// future, a name already taken): the form is shown again, 422, with each message on its field.
///
/// ```swift
/// guard note.tasted <= today else { throw FormValidationError("tasted", "A tasting cannot be in the future.") }
/// ```
///
/// Give it one message at least: one without any says nothing to fix, and is a 500 like any other error.
public struct FormValidationError: Error, Sendable, CustomStringConvertible {
    /// The message of each field at fault, by the field's name.
    public var messages: [String: String]
    /// The status the form is shown again with: 422, or 409 when what the form edits changed since
    /// it was opened (nothing was overwritten).
    public var status: HTTPStatus = .unprocessableContent
    /// Where the form shown again posts, when not where it was posted: after a conflict, the
    /// address that carries the thing's new version, so that saving again replaces it knowingly.
    public var action: String?

    public init(_ messages: [String: String]) {
        self.messages = messages
    }

    /// One field's message.
    public init(_ field: String, _ message: String) {
        self.messages = [field: message]
    }

    public var description: String {
        messages.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
    }
}
