import ByteWriters

/// Session cookies that verified, by their value, each with its actor, issue time and the
/// account's password hash when it verified: a browser sends the same cookie with every request,
/// and checking its signature each time cost two HMAC-SHA256 and its decoding (BENCHMARKS.md,
/// "Sign-in's cost a request"). Expiry and the account's current hash are still checked on every
/// request. At most ``capacity`` values are kept; when full, all are forgotten.
final class VerifiedSessions: Sendable {
    struct Session: Sendable {
        let actor: String
        let issuedAt: Int64
        let passwordHash: PasswordHash
    }

    static let capacity = 10_000
    private let sessions = Locked<[String: Session]>([:])

    func session(for value: String) -> Session? {
        sessions.withLock { $0[value] }
    }

    func remember(_ value: String, _ session: Session) {
        sessions.withLock { sessions in
            if sessions.count >= Self.capacity { sessions.removeAll(keepingCapacity: true) }
            sessions[value] = session
        }
    }

    var count: Int { sessions.withLock { $0.count } }
}
