import FoundationEssentials

/// What "Undo" after a delete puts back, signed: the deleted row's identifier, where it was, its
/// editing form's values, who deleted it, and until when it may be undone.
///
/// `u1.<payload>.<signature>`, both base64url: the payload is the token as JSON, the signature
/// HMAC-SHA256 under the session keys with the purpose `undo` (so that no cookie or bearer token
/// is ever an undo token, nor one of these either). Nothing is kept in the process: any replica
/// with the same keys can undo, and a restart does not lose the offer.
struct UndoToken: Codable, Equatable {
    static let prefix = "u1"
    static let purpose = "undo"
    /// How long a delete can be undone: the page offers it for a few seconds; a slow network
    /// or a screen reader's pace gets more.
    static let lifetime: Int64 = 60
    /// The longest token put in a URL: a row too large to carry is deleted without an Undo.
    static let largestSize = 4096

    /// The account that deleted the row; empty for a visitor.
    let actor: String
    /// The list's path.
    let list: String
    let section: Int
    let row: Int
    /// The deleted row's identifier.
    let identifier: String
    /// The row's editing form's values when it was deleted.
    let values: [String: String]
    /// Seconds since 1970.
    let expiresAt: Int64

    func signed(keys: SessionKeys) -> String? {
        guard let payload = try? JSONEncoder().encode(self) else { return nil }
        let bytes = Array(payload)
        let token = "\(Self.prefix).\(Base64URL.encoded(bytes)).\(Base64URL.encoded(keys.sign(bytes, purpose: Self.purpose)))"
        return token.utf8.count <= Self.largestSize ? token : nil
    }

    /// The token `text` is, if a key signed it and it has not expired; nil otherwise.
    static func verified(_ text: String, keys: SessionKeys, now: Int64) -> UndoToken? {
        guard text.utf8.count <= largestSize else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == prefix, let payload = Base64URL.decoded(parts[1]), let signature = Base64URL.decoded(parts[2]),
            keys.verifyingKey(of: payload, purpose: purpose, signature: signature) != nil,
            let token = try? JSONDecoder().decode(UndoToken.self, from: Data(payload)), now < token.expiresAt
        else { return nil }
        return token
    }
}
