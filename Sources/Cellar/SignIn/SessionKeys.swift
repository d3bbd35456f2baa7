import FoundationEssentials

/// The keys sessions are signed with: the current one signs, it and the previous ones verify (so a
/// rotation signs no one out until the old key is dropped).
///
/// From `CELLAR_SECRET` or the file `--secret-file` names: keys separated by new lines (or
/// spaces), the first current, the others previous; each at least 32 characters (`openssl rand
/// -hex 32`). Every replica needs the same keys, so that a session holds across them. Without
/// any, one is made at start: sessions then end with the process. Keys are secrets: never logged.
public struct SessionKeys: Sendable {
    /// The key that signs, then those still accepted.
    let keys: [[UInt8]]
    /// Each key made ready for HMAC-SHA256, in the same order.
    let macs: [HMACKey]
    /// True for a key made at start, not given.
    public let isEphemeral: Bool

    /// Keys from text (a variable's value or a file's content).
    public init(text: String) throws(SessionKeyError) {
        let keys = text.split(whereSeparator: { $0 == "\n" || $0 == " " || $0 == "\r" || $0 == "\t" }).map { Array($0.utf8) }
        guard !keys.isEmpty else { throw .empty }
        guard keys.allSatisfy({ $0.count >= 32 }) else { throw .tooShort }
        try self.init(keys: keys, isEphemeral: false)
    }

    /// A random key, for this process only.
    public static func ephemeral() throws(SessionKeyError) -> SessionKeys {
        do {
            return try SessionKeys(keys: [Array(Base64URL.encoded(try Crypto.randomBytes(32)).utf8)], isEphemeral: true)
        } catch {
            throw .randomFailed
        }
    }

    init(keys: [[UInt8]], isEphemeral: Bool) throws(SessionKeyError) {
        var macs: [HMACKey] = []
        for key in keys {
            guard let mac = HMACKey(key) else { throw .cryptoUnavailable }
            macs.append(mac)
        }
        self.keys = keys
        self.macs = macs
        self.isEphemeral = isEphemeral
    }

    /// No key at all: nothing signs, nothing verifies (a process that could not make one).
    static let none = SessionKeys(keys: [], macs: [], isEphemeral: true)

    private init(keys: [[UInt8]], macs: [HMACKey], isEphemeral: Bool) {
        self.keys = keys
        self.macs = macs
        self.isEphemeral = isEphemeral
    }

    /// The keys in the file at `path`.
    public static func load(path: String) throws(SessionKeyError) -> SessionKeys {
        guard let data = FileManager.default.contents(atPath: path), let text = String(validating: data, as: UTF8.self) else {
            throw .unreadable(path)
        }
        return try SessionKeys(text: text)
    }

    /// The current key's signature of `message` under `purpose` (sessions and tokens sign under
    /// different purposes, so that one is never taken for the other).
    func sign(_ message: [UInt8], purpose: String) -> [UInt8] {
        macs.first?.authenticationCode(for: Array(purpose.utf8) + [0] + message) ?? []
    }

    /// The first key whose signature of `message` is `signature` (32 bytes), compared in constant time.
    func verifyingKey(of message: [UInt8], purpose: String, signature: [UInt8]) -> HMACKey? {
        guard signature.count == 32 else { return nil }
        let signed = Array(purpose.utf8) + [0] + message
        return macs.first { Crypto.constantTimeEquals($0.authenticationCode(for: signed), signature) }
    }
}

public enum SessionKeyError: Error, CustomStringConvertible {
    case empty, tooShort, unreadable(String), randomFailed, cryptoUnavailable

    public var description: String {
        switch self {
        case .empty: "the session secret is empty: give at least one key of 32 characters or more (openssl rand -hex 32)"
        case .tooShort: "each session key must be at least 32 characters long (openssl rand -hex 32 makes one)"
        case .unreadable(let path): "cannot read the secret file \(path)"
        case .randomFailed: "the system's random generator gave no bytes for a session key"
        case .cryptoUnavailable: "OpenSSL's HMAC-SHA256 could not be set up (is libcrypto 3 installed?)"
        }
    }
}
