import ByteWriters

/// What keeps password guessing slow: failed sign-ins counted per address (at most
/// ``failuresPerMinute`` a minute, then 429), per account (each failure slows that account's next
/// tries, up to ``maximumDelay``, never a lock-out), and password hashes in flight (one per core,
/// then 503).
///
/// Its memory is bounded: at most ``maximumAddresses`` addresses and as many account names are
/// remembered (the oldest forgotten first). Names that have no account are slowed as accounts
/// are, so that the delay does not tell which accounts exist.
final class LoginRateLimiter: Sendable {
    static let failuresPerMinute = 10
    static let window: Duration = .seconds(60)
    static let maximumAddresses = 10_000
    /// The longest an account's next try waits, however many failures it had.
    static let maximumDelay: Duration = .seconds(2)

    private struct State {
        /// Failure times per address, oldest first, those within the window.
        var failures: [String: [ContinuousClock.Instant]] = [:]
        /// Failures in a row per account, and the last one's time.
        var accountFailures: [String: (count: Int, last: ContinuousClock.Instant)] = [:]
        var hashesInFlight = 0
    }

    private let state = Locked(State())
    let maximumHashesInFlight: Int

    init(maximumHashesInFlight: Int) {
        self.maximumHashesInFlight = max(1, maximumHashesInFlight)
    }

    /// Seconds `address` must wait before it may try again, or nil when it may try now.
    func retryAfter(address: String, now: ContinuousClock.Instant = .now) -> Int? {
        state.withLock { state in
            guard var times = state.failures[address] else { return nil }
            times.removeAll { now - $0 >= Self.window }
            state.failures[address] = times.isEmpty ? nil : times
            guard times.count >= Self.failuresPerMinute, let oldest = times.first else { return nil }
            let wait = Self.window - (now - oldest)
            return max(1, Int(wait.components.seconds) + 1)
        }
    }

    /// Counts a failed sign-in from `address` for the account name `account` (nil: not a name).
    func recordFailure(address: String, account: String?, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            if state.failures[address] == nil, state.failures.count >= Self.maximumAddresses {
                Self.forgetOldest(&state.failures, now: now)
            }
            var times = state.failures[address] ?? []
            times.removeAll { now - $0 >= Self.window }
            times.append(now)
            if times.count > Self.failuresPerMinute { times.removeFirst(times.count - Self.failuresPerMinute) }
            state.failures[address] = times
            if let account {
                if state.accountFailures[account] == nil, state.accountFailures.count >= Self.maximumAddresses {
                    let oldest = state.accountFailures.sorted { $0.value.last < $1.value.last }.prefix(max(1, Self.maximumAddresses / 4))
                    for (name, _) in oldest { state.accountFailures[name] = nil }
                }
                let count = (state.accountFailures[account]?.count ?? 0) + 1
                state.accountFailures[account] = (count, now)
            }
        }
    }

    /// A successful sign-in: the account's failures are forgotten.
    func recordSuccess(account: String) {
        state.withLock { $0.accountFailures[account] = nil }
    }

    /// How long `account`'s next try waits: nothing for its first 3 failures in a row, then 250 ms
    /// doubling up to ``maximumDelay``; failures older than 15 minutes are forgotten.
    func delay(account: String, now: ContinuousClock.Instant = .now) -> Duration {
        state.withLock { state in
            guard let entry = state.accountFailures[account] else { return .zero }
            if now - entry.last > .seconds(900) {
                state.accountFailures[account] = nil
                return .zero
            }
            guard entry.count > 3 else { return .zero }
            let delay = Duration.milliseconds(250) * (1 << min(entry.count - 4, 8))
            return min(delay, Self.maximumDelay)
        }
    }

    /// Runs `body` (a password hash) if fewer than one per core are running; nil when as many are.
    func withHashSlot<Result>(_ body: () -> Result) -> Result? {
        let admitted = state.withLock { state in
            guard state.hashesInFlight < maximumHashesInFlight else { return false }
            state.hashesInFlight += 1
            return true
        }
        guard admitted else { return nil }
        defer { state.withLock { $0.hashesInFlight -= 1 } }
        return body()
    }

    /// Account names remembered now (for tests of the bound).
    var accountCount: Int { state.withLock { $0.accountFailures.count } }

    /// Addresses remembered now (for tests of the bound).
    var addressCount: Int { state.withLock { $0.failures.count } }

    /// Forgets addresses whose failures are all past the window, then, if none were, the quarter
    /// whose last failure is oldest.
    private static func forgetOldest(_ failures: inout [String: [ContinuousClock.Instant]], now: ContinuousClock.Instant) {
        failures = failures.filter { entry in entry.value.last.map { now - $0 < window } ?? false }
        guard failures.count >= maximumAddresses else { return }
        let sorted = failures.sorted { ($0.value.last ?? now) < ($1.value.last ?? now) }
        for (address, _) in sorted.prefix(max(1, failures.count / 4)) { failures[address] = nil }
    }
}
