/// The moment by which a PostgreSQL call must be answered: a connect, a query, a cancel's grace.
///
/// One deadline can be handed to several calls (a request's count and its page), so they share
/// one budget. It is measured on the monotonic `ContinuousClock`: a change of the wall clock
/// does not move it.
public struct PostgresDeadline: Sendable, Comparable {
    public let instant: ContinuousClock.Instant

    public init(_ instant: ContinuousClock.Instant) { self.instant = instant }

    /// The deadline `seconds` from now (negative or NaN: now; at most about 30 years).
    public static func seconds(_ seconds: Double) -> PostgresDeadline {
        let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), 1e9)
        return PostgresDeadline(ContinuousClock.now.advanced(by: .milliseconds(Int64(clamped * 1000))))
    }

    public var hasPassed: Bool { ContinuousClock.now >= instant }

    /// The time left, in whole milliseconds rounded up (0 once past): what `poll(2)` waits.
    var pollMilliseconds: Int32 {
        let left = instant - ContinuousClock.now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    /// The earlier of the two.
    func limited(to other: PostgresDeadline) -> PostgresDeadline { min(self, other) }

    public static func < (lhs: PostgresDeadline, rhs: PostgresDeadline) -> Bool { lhs.instant < rhs.instant }
}
