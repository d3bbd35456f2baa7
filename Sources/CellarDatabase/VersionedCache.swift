import ByteWriters
import TableKit

/// What a query found, by the query and its bound values, for the database version it was found
/// at: a list's total, or a facet's counts, is made once per filter until the database changes.
final class VersionedCache<Value>: @unchecked Sendable {
    /// A query and its bound values.
    struct Key: Hashable {
        var sql: String
        var bindings: [DatabaseValue]
    }

    private let lock = Lock()
    /// Guarded by `lock`.
    private var values: [Key: (version: String, value: Value)] = [:]
    /// At most this many kept; when full, the cache starts again.
    private let capacity: Int
    /// Values answered from the cache (for tests). Guarded by `lock`.
    private var answered = 0

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    func value(for key: Key, version: String) -> Value? {
        lock.withLock {
            guard let entry = values[key], entry.version == version else { return nil }
            answered += 1
            return entry.value
        }
    }

    /// How many values were answered from the cache (for tests).
    var hits: Int { lock.withLock { answered } }

    func store(_ value: Value, for key: Key, version: String) {
        lock.withLock {
            if values.count >= capacity { values.removeAll(keepingCapacity: true) }
            values[key] = (version, value)
        }
    }
}

/// The rows a count query kept, up to the count limit.
struct RowCount {
    var rows: Int
    var isExact: Bool
}

typealias CountCache = VersionedCache<RowCount>
