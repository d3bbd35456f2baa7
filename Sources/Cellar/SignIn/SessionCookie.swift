#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A session: a signed cookie that names the actor, when it signed in, and a digest of its
/// account's password hash at that time.
///
/// `cellar_session=<payload>.<signature>`, both base64url: the payload is `actor`, the issue time
/// in seconds since 1970 and the digest, separated by new lines; the signature HMAC-SHA256 under
/// the session key with the purpose `session`. The cookie is refused (signed out) when its
/// signature is no key's, when it is older than its lifetime, when its account is gone or its
/// password changed (the digest no longer matches).
struct SessionCookie: Equatable {
    static let name = "cellar_session"
    static let purpose = "session"

    let actor: String
    /// Seconds since 1970.
    let issuedAt: Int64

    /// The cookie's value for `actor` with `account`'s current hash, signed with the current key.
    static func value(actor: String, issuedAt: Int64, account: Account, keys: SessionKeys) -> String {
        guard let mac = keys.macs.first else { return "" }
        let payload = Self.payload(actor: actor, issuedAt: issuedAt, digest: digest(of: account, mac: mac))
        return Base64URL.encoded(payload) + "." + Base64URL.encoded(keys.sign(payload, purpose: purpose))
    }

    /// The session `value` carries, or nil when it is not one: tampered, another key's, expired,
    /// for an account that is gone or whose password changed.
    static func verified(_ value: some StringProtocol, keys: SessionKeys, now: Int64, lifetime: Int64, accounts: [String: Account]) -> SessionCookie?
    {
        let bytes = Array(value.utf8)
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")), let payload = Base64URL.decoded(String(decoding: bytes[..<dot], as: UTF8.self)),
            let signature = Base64URL.decoded(String(decoding: bytes[(dot + 1)...], as: UTF8.self)),
            let key = keys.verifyingKey(of: payload, purpose: purpose, signature: signature)
        else { return nil }
        let fields = payload.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard fields.count == 3, let actor = String(validating: fields[0], as: UTF8.self),
            let issuedAt = Int64(String(decoding: fields[1], as: UTF8.self)),
            let digest = Base64URL.decoded(String(decoding: fields[2], as: UTF8.self))
        else { return nil }
        // A cookie from the future (a clock far off) is refused too.
        guard issuedAt <= now + 300, now - issuedAt < lifetime else { return nil }
        guard let account = accounts[actor], digest.count == 16, Crypto.constantTimeEquals(digest, Self.digest(of: account, mac: key)) else {
            return nil
        }
        return SessionCookie(actor: actor, issuedAt: issuedAt)
    }

    /// The session cookie's value in a `Cookie` header, if any, as a slice of the header: a scan
    /// of the header's bytes in place, without copying them, as it runs for every request that has
    /// cookies (BENCHMARKS.md, "Sign-in's cost a request").
    static func find(in header: String?) -> Substring? {
        guard let header else { return nil }
        let utf8 = header.utf8
        guard
            let range = utf8.withContiguousStorageIfAvailable({ valueRange(inBytes: $0) })
                ?? Array(utf8).withUnsafeBufferPointer({ valueRange(inBytes: $0) })
        else { return nil }
        // Both ends are next to ASCII bytes (the name's `=`, a `;` or the end): scalar boundaries.
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return header[start..<utf8.index(start, offsetBy: range.count)]
    }

    /// `cellar_session=`, whose value ``find(in:)`` looks for.
    private static let prefix = Array((name + "=").utf8)

    /// Where the session cookie's value is in a `Cookie` header's bytes; each cookie's end found
    /// by `memchr` (a byte at a time, this loop was most of a signed-in request's own cost here).
    private static func valueRange(inBytes bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var start = 0
        while start < count {
            while start < count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            let semicolon = memchr(base + start, Int32(UInt8(ascii: ";")), count - start)
            let end = semicolon.map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) } ?? count
            if end - start > prefix.count, prefix.indices.allSatisfy({ bytes[start + $0] == prefix[$0] }) {
                return (start + prefix.count)..<end
            }
            start = end + 1
        }
        return nil
    }

    /// The `Set-Cookie` value that stores `value`, or that clears the cookie when `value` is nil.
    static func setCookie(_ value: String?, secure: Bool, maxAge: Int64) -> String {
        let attributes = "; Path=/; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
        guard let value else { return "\(name)=\(attributes); Max-Age=0" }
        return "\(name)=\(value)\(attributes); Max-Age=\(maxAge)"
    }

    private static func payload(actor: String, issuedAt: Int64, digest: [UInt8]) -> [UInt8] {
        Array("\(actor)\n\(issuedAt)\n\(Base64URL.encoded(digest))".utf8)
    }

    /// 16 bytes that change when the account's hash does; they tell nothing of the hash without the key.
    private static func digest(of account: Account, mac: HMACKey) -> [UInt8] {
        Array(mac.authenticationCode(for: Array("account\0".utf8) + account.passwordHash.encoded).prefix(16))
    }
}
