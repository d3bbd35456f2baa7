import ByteWriters
import TableKit

/// Counts of rows already made, by query and bound values, for the database version they were
/// made at: a list's total costs one capped count per filter until the database changes.
final class CountCache: @unchecked Sendable {
    /// A count query and its bound values.
    struct Key: Hashable {
        var sql: String
        var bindings: [DatabaseValue]
    }

    struct Count {
        var rows: Int
        var isExact: Bool
    }

    private let lock = Lock()
    /// Guarded by `lock`.
    private var counts: [Key: (version: String, count: Count)] = [:]
    /// At most this many kept; when full, the cache starts again.
    private let capacity = 4096
    /// Counts answered from the cache (for tests). Guarded by `lock`.
    private var answered = 0

    func count(for key: Key, version: String) -> Count? {
        lock.withLock {
            guard let entry = counts[key], entry.version == version else { return nil }
            answered += 1
            return entry.count
        }
    }

    /// How many counts were answered from the cache (for tests).
    var hits: Int { lock.withLock { answered } }

    func store(_ count: Count, for key: Key, version: String) {
        lock.withLock {
            if counts.count >= capacity { counts.removeAll(keepingCapacity: true) }
            counts[key] = (version, count)
        }
    }
}
