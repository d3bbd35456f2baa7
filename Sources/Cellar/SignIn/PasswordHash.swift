/// A password's scrypt hash, in the PHC string format that `cellar account hash` prints and
/// `accounts:` holds: `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (salt and hash in base64 without
/// padding). scrypt is memory-hard: N = 2^15 and r = 8 cost 32 MiB and about 0.1 s a check, which
/// guessing pays for each guess.
public struct PasswordHash: Sendable, Equatable, CustomStringConvertible {
    public static func == (lhs: PasswordHash, rhs: PasswordHash) -> Bool { lhs.encoded == rhs.encoded }

    /// log2 of N.
    public let logCost: Int
    public let blockSize: Int
    public let parallelism: Int
    let salt: [UInt8]
    let hash: [UInt8]

    /// The parameters `cellar account hash` uses: N = 2^15, r = 8, p = 1 (32 MiB).
    public static let defaultLogCost = 15

    /// Reads a hash as `cellar account hash` printed it.
    public init(_ text: String) throws(PasswordHashError) {
        let parts = text.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { throw .notAHash }
        var values: [Substring: Int] = [:]
        for parameter in parts[2].split(separator: ",") {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let value = Int(pair[1]) else { throw .notAHash }
            values[pair[0]] = value
        }
        guard let logCost = values["ln"], let blockSize = values["r"], let parallelism = values["p"], values.count == 3,
            (1...20).contains(logCost), (1...32).contains(blockSize), (1...16).contains(parallelism),
            let salt = Base64URL.standardDecoded(parts[3]), salt.count >= 8, let hash = Base64URL.standardDecoded(parts[4]), hash.count >= 16
        else { throw .notAHash }
        self.init(logCost: logCost, blockSize: blockSize, parallelism: parallelism, salt: salt, hash: hash)
    }

    init(logCost: Int, blockSize: Int, parallelism: Int, salt: [UInt8], hash: [UInt8]) {
        self.logCost = logCost
        self.blockSize = blockSize
        self.parallelism = parallelism
        self.salt = salt
        self.hash = hash
        description = "$scrypt$ln=\(logCost),r=\(blockSize),p=\(parallelism)$\(Base64URL.standardEncoded(salt))$\(Base64URL.standardEncoded(hash))"
        encoded = Array(description.utf8)
    }

    /// A new hash of `password`, with a random salt.
    public static func make(password: String, logCost: Int = defaultLogCost) throws(CryptoError) -> PasswordHash {
        let salt = try Crypto.randomBytes(16)
        let hash = try derive(password: password, salt: salt, logCost: logCost, blockSize: 8, parallelism: 1)
        return PasswordHash(logCost: logCost, blockSize: 8, parallelism: 1, salt: salt, hash: hash)
    }

    /// Whether `password` is the one hashed, compared in constant time; the whole scrypt is paid either way.
    public func verifies(_ password: String) -> Bool {
        guard let derived = try? Self.derive(password: password, salt: salt, logCost: logCost, blockSize: blockSize, parallelism: parallelism)
        else { return false }
        return Crypto.constantTimeEquals(derived, hash)
    }

    /// A hash of the same cost that no password matches: what an unknown account is checked
    /// against, so that it costs what a wrong password does.
    func dummy() -> PasswordHash {
        PasswordHash(
            logCost: logCost, blockSize: blockSize, parallelism: parallelism, salt: [UInt8](repeating: 0x5A, count: 16),
            hash: [UInt8](repeating: 0, count: hash.count))
    }

    private static func derive(password: String, salt: [UInt8], logCost: Int, blockSize: Int, parallelism: Int) throws(CryptoError) -> [UInt8] {
        try Crypto.scrypt(
            password: Array(password.utf8), salt: salt, cost: 1 << UInt64(logCost), blockSize: UInt64(blockSize),
            parallelism: UInt64(parallelism), length: 32)
    }

    /// The PHC string. It is a secret (it lets an attacker guess offline): never log it.
    public let description: String

    /// The bytes a session's digest is made of, every signed-in request: the whole string, made once.
    let encoded: [UInt8]
}

public enum PasswordHashError: Error, CustomStringConvertible {
    case notAHash

    public var description: String {
        "not a password hash: expected $scrypt$ln=…,r=…,p=…$salt$hash, as `cellar account hash` prints it"
    }
}
