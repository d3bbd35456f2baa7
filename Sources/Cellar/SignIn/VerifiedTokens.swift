import ByteWriters

/// Bearer tokens that verified, by their text: a script sends the same token with every request,
/// and checking its signature each time was an HMAC-SHA256 and its decoding, about a tenth of a
/// write's CPU (BENCHMARKS.md, "Writes through the JSON write API"). As for session cookies
/// (``VerifiedSessions``), only the signature is remembered: expiry, revocation and the account
/// are still checked on every request. A token's text is the key as a cookie's value is
/// ``VerifiedSessions``': lent from the header, compared byte for byte and hashed by its last 16
/// bytes, its signature's (hashing all of a token's bytes was most of a lookup). At most
/// ``capacity`` tokens are kept; when full, all are forgotten.
final class VerifiedTokens: Sendable {
    static let capacity = 10_000
    private let tokens = Locked<[VerifiedSessions.Key: BearerToken]>([:])

    func token(for text: Substring) -> BearerToken? {
        tokens.withLock { $0[VerifiedSessions.Key(lent: text)] }
    }

    func remember(_ text: Substring, _ token: BearerToken) {
        tokens.withLock { tokens in
            if tokens.count >= Self.capacity { tokens.removeAll(keepingCapacity: true) }
            tokens[VerifiedSessions.Key(stored: text)] = token
        }
    }
}
