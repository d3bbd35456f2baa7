import TableKit

/// A row item that writes its own JSON: the fast path of the JSON twin, for lists where
/// `Encodable`'s containers cost more than the data.
///
/// The item must write one JSON value (usually an object) and should agree with its
/// `Encodable` conformance, if it has one, field for field.
///
/// ```swift
/// extension Person: JSONRepresentable {
///     func writeJSON(into json: inout JSONWriter) {
///         json.raw("{"); json.key("id"); json.number(id)
///         json.raw(","); json.key("name"); json.string(name)
///         json.raw("}")
///     }
/// }
/// ```
public protocol JSONRepresentable {
    func writeJSON(into json: inout JSONWriter)
}

/// A controller that writes its rows' JSON items itself, the fast path of the JSON twin; the
/// list checks for it once per response. Return false for a row without an item.
public protocol JSONItemWriting: TableController {
    func writeItem(forRowAt indexPath: IndexPath, into json: inout JSONWriter) -> Bool
    /// Writes members of the list's own beside its rows, each as `,"name":value` (a database
    /// list's `facets`), after `list` and before `meta`. None by default.
    func writeListMembers(into json: inout JSONWriter)
}

extension JSONItemWriting {
    public func writeListMembers(into json: inout JSONWriter) {}
}
