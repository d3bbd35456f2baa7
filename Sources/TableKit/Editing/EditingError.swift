/// A change a commit refuses, with a message for the person who asked for it: Cellar answers 422
/// and shows `message` in the row (on `field` of its form, when named), the values sent kept.
///
/// ```swift
/// guard !title.isEmpty else { throw EditingError("A bottle needs a name.", field: "name") }
/// ```
///
/// Any other error a commit throws is logged and shown as a message that says only that the
/// change was not made: its text may hold what a visitor should not read.
public struct EditingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// The form field the message is about, or nil for the row as a whole.
    public var field: String?

    public init(_ message: String, field: String? = nil) {
        self.message = message
        self.field = field
    }

    public var description: String { message }
}
