import TableKit

/// ``ReuseStatistics`` as a test can spell it out (its memberwise initializer is internal).
struct Reuse: Equatable, CustomStringConvertible {
    var pools: Int
    var created = 0
    var reused = 0

    var description: String { "pools: \(pools), created: \(created), reused: \(reused)" }
}

extension ReuseRegistry {
    /// The registry's ``statistics``, comparable with a ``Reuse`` literal.
    var reuse: Reuse {
        let statistics = statistics
        return Reuse(pools: statistics.pools, created: statistics.cellsCreated, reused: statistics.cellsReused)
    }
}
