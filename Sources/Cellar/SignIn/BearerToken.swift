/// A token for scripts: `Authorization: Bearer <token>`, made by `cellar token create`.
///
/// `ct1.<payload>.<signature>`, both base64url: the payload is the token's id, its actor, its
/// expiry (seconds since 1970) and the actions it allows (`view`, `update:/notes`, `query`),
/// separated by new lines; the signature HMAC-SHA256 under the session keys with the purpose
/// `token` (so a session cookie is never a token, nor a token a cookie). A token grants the
/// intersection of the actions it names and what its actor may do now; it is refused when its
/// actor's account is gone, or its id is in the configuration's `revoked_tokens:`.
public struct BearerToken: Sendable, Equatable {
    static let prefix = "ct1"
    static let purpose = "token"

    /// An action a token allows, on one list (a path or a table's name) or on all.
    public struct Scope: Sendable, Equatable, CustomStringConvertible {
        public let action: Action
        /// nil: every list.
        public let list: String?

        /// `view`, `update:/notes`, `delete:notes`.
        public init(_ text: String) throws(BearerTokenError) {
            let parts = text.split(separator: ":", maxSplits: 1)
            guard let first = parts.first, let action = Action(rawValue: String(first)) else { throw .badScope(text) }
            self.action = action
            list = parts.count > 1 ? String(parts[1]) : nil
            if let list, list.isEmpty || list.contains(",") || list.contains("\n") { throw .badScope(text) }
        }

        func allows(_ action: Action, path: String?) -> Bool {
            guard action == self.action else { return false }
            guard let list else { return true }
            guard let path else { return false }
            return list == path || "/" + list == path
        }

        public var description: String { action.rawValue + (list.map { ":" + $0 } ?? "") }
    }

    /// 16 hex characters: what `revoked_tokens:` names.
    public let id: String
    public let actor: String
    /// Seconds since 1970.
    public let expiresAt: Int64
    public let scopes: [Scope]

    /// Whether the token allows `action` on the list at `path` (nil: the SQL page).
    public func allows(_ action: Action, path: String?) -> Bool {
        scopes.contains { $0.allows(action, path: path) }
    }

    /// A new token for `actor`, signed with the current key.
    public static func make(actor: String, scopes: [Scope], expiresAt: Int64, keys: SessionKeys) throws(CryptoError) -> String {
        let id = try Crypto.randomBytes(8).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
        let payload = Array("\(id)\n\(actor)\n\(expiresAt)\n\(scopes.map(\.description).joined(separator: ","))".utf8)
        return "\(prefix).\(Base64URL.encoded(payload)).\(Base64URL.encoded(keys.sign(payload, purpose: purpose)))"
    }

    /// The token `text` is, if a key signed it and it has not expired; nil otherwise.
    static func verified(_ text: some StringProtocol, keys: SessionKeys, now: Int64) -> BearerToken? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == prefix, let payload = Base64URL.decoded(parts[1]), let signature = Base64URL.decoded(parts[2]),
            keys.verifyingKey(of: payload, purpose: purpose, signature: signature) != nil,
            let fields = String(validating: payload, as: UTF8.self)?.split(separator: "\n", omittingEmptySubsequences: false),
            fields.count == 4, let expiresAt = Int64(fields[2]), now < expiresAt
        else { return nil }
        var scopes: [Scope] = []
        for scope in fields[3].split(separator: ",") {
            guard let parsed = try? Scope(String(scope)) else { return nil }
            scopes.append(parsed)
        }
        return BearerToken(id: String(fields[0]), actor: String(fields[1]), expiresAt: expiresAt, scopes: scopes)
    }

    /// The token in an `Authorization: Bearer …` header; nil when the header is not a bearer one.
    static func credentials(in header: String?) -> Substring? {
        guard let header else { return nil }
        // The header's own bytes, borrowed (lowercasing a prefix made two strings a request).
        let bytes = header.utf8
        guard let start = bytes.withContiguousStorageIfAvailable(tokenStart) ?? Array(bytes).withUnsafeBufferPointer(tokenStart) else {
            return nil
        }
        return header[bytes.index(bytes.startIndex, offsetBy: start)...]
    }

    /// Where the token starts in a header's bytes: after `Bearer ` in any case and any more spaces;
    /// nil when the header does not start so, or is no longer than that.
    private static func tokenStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count > scheme.count else { return nil }
        for index in scheme.indices where bytes[index] != scheme[index] {
            // A letter in upper case; the space must be a space.
            guard scheme[index] != UInt8(ascii: " "), bytes[index] | 0x20 == scheme[index] else { return nil }
        }
        var start = scheme.count
        while start < bytes.count, bytes[start] == UInt8(ascii: " ") { start += 1 }
        return start
    }

    /// `bearer `, as bytes.
    private static let scheme = Array("bearer ".utf8)
}

public enum BearerTokenError: Error, CustomStringConvertible {
    case badScope(String)

    public var description: String {
        switch self {
        case .badScope(let text):
            "'\(text)' is not ACTION or ACTION:LIST (actions: \(Action.allCases.map(\.rawValue).joined(separator: ", ")); a list is a path or a table's name)"
        }
    }
}
