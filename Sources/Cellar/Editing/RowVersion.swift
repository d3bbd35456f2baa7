import ByteWriters
import TableKit

/// A row's version, as an editing form carries it: a change asked for from a page that showed
/// another version is refused (409), so that no one overwrites a change they did not see.
///
/// The controller's own (``EditableTableController/version(forRowAt:)``), or else a hash of what
/// the row is: its JSON item (what the list's JSON shows of it), or, for a row without one, its
/// editing form's values. Made from the row alone, so that replicas and restarts agree.
enum RowVersion {
    static func of(_ controller: any EditableTableController, at indexPath: IndexPath) -> String {
        if let own = controller.version(forRowAt: indexPath) { return own }
        var hash = StableHash()
        hash.combine(controller.identifier(forRowAt: indexPath))
        if let item = controller.item(forRowAt: indexPath) {
            var json = JSONWriter(capacity: 256)
            if (try? JSONItemEncoder(specialValues: FoundationJSONValues.self).encode(item, into: &json)) != nil {
                hash.combine(bytes: json.takeBytes())
                return hex(hash.value)
            }
        }
        if let form = controller.editingForm(forRowAt: indexPath) {
            for (name, value) in form.values.sorted(by: { $0.key < $1.key }) {
                hash.combine(name)
                hash.combine(value)
            }
        }
        return hex(hash.value)
    }

    /// 16 hex digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
