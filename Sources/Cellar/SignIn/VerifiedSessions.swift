import ByteWriters

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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

    /// A cookie's value as the key: compared byte for byte, and hashed by its last 16 bytes, which
    /// are its signature's (BENCHMARKS.md, "A signed-in request's cost, again": hashing all 110
    /// bytes was most of a lookup). Only cookies that verified are stored, so the bytes hashed are
    /// an HMAC's, which no one can choose to make keys collide.
    struct Key: Hashable, Sendable {
        let value: Substring

        /// A value found in a request's `Cookie` header, lent without a copy.
        init(lent value: Substring) { self.value = value }

        /// A value kept in the dictionary: a copy of its own, not a slice of the whole header.
        init(stored value: Substring) { self.value = Substring(String(value)) }

        static func == (lhs: Key, rhs: Key) -> Bool {
            let equal = lhs.value.utf8.withContiguousStorageIfAvailable { left in
                rhs.value.utf8.withContiguousStorageIfAvailable { right in
                    left.count == right.count && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
                }
            }
            if let equal, let equal { return equal }
            return lhs.value.utf8.elementsEqual(rhs.value.utf8)
        }

        func hash(into hasher: inout Hasher) {
            let hashed: Void? = value.utf8.withContiguousStorageIfAvailable {
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0.suffix(16))))
            }
            if hashed == nil { Array(value.utf8.suffix(16)).withUnsafeBytes { hasher.combine(bytes: $0) } }
        }
    }

    static let capacity = 10_000
    private let sessions = Locked<[Key: Session]>([:])

    func session(for value: Substring) -> Session? {
        sessions.withLock { $0[Key(lent: value)] }
    }

    func remember(_ value: Substring, _ session: Session) {
        sessions.withLock { sessions in
            if sessions.count >= Self.capacity { sessions.removeAll(keepingCapacity: true) }
            sessions[Key(stored: value)] = session
        }
    }

    var count: Int { sessions.withLock { $0.count } }
}
