import ByteWriters
internal import COpenSSL

/// The cryptography sign-in needs, from Debian's OpenSSL (libcrypto): nothing here is written by
/// hand but the calls. BENCHMARKS.md ("Sign-in's crypto") says why OpenSSL rather than
/// swift-crypto: it adds nothing to a clean build.
enum Crypto {
    /// HMAC-SHA256 of `message` under `key` (32 bytes). A key used more than once is an ``HMACKey``.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        HMACKey(key)?.authenticationCode(for: message) ?? []
    }

    /// scrypt (RFC 7914) of `password` with `salt`: `cost` is N (a power of two), `blockSize` r,
    /// `parallelism` p. Memory: 128 × r × N bytes.
    static func scrypt(password: [UInt8], salt: [UInt8], cost: UInt64, blockSize: UInt64, parallelism: UInt64, length: Int) throws(CryptoError)
        -> [UInt8]
    {
        var out = [UInt8](repeating: 0, count: length)
        // Room for what the parameters need and a little more; OpenSSL's default (32 MiB) is just short of N = 2^15, r = 8.
        let memory = 128 * blockSize * cost * parallelism + 1024 * 1024
        let status = password.withUnsafeBytes { passwordBytes in
            salt.withUnsafeBytes { saltBytes in
                out.withUnsafeMutableBytes { outBytes in
                    EVP_PBE_scrypt(
                        passwordBytes.baseAddress?.assumingMemoryBound(to: CChar.self), passwordBytes.count,
                        saltBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), saltBytes.count, cost, blockSize, parallelism, memory,
                        outBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), length)
                }
            }
        }
        guard status == 1 else { throw CryptoError.scryptFailed }
        return out
    }

    /// `count` bytes from OpenSSL's random generator (seeded by the kernel).
    static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let status = out.withUnsafeMutableBytes { RAND_bytes($0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(count)) }
        guard status == 1 else { throw CryptoError.randomFailed }
        return out
    }

    /// Whether `a` and `b` are equal, in a time that depends on their length only.
    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { left in b.withUnsafeBytes { right in CRYPTO_memcmp(left.baseAddress, right.baseAddress, a.count) == 0 } }
    }
}

/// An HMAC-SHA256 key made ready once (OpenSSL's context, duplicated for each message): what
/// signs and checks sessions and tokens on every request.
final class HMACKey: @unchecked Sendable {
    // Only ever duplicated, under the lock, after `init`.
    private let context: OpaquePointer
    private let lock = Lock()

    init?(_ key: [UInt8]) {
        guard let context = key.withUnsafeBufferPointer({ copenssl_hmac_sha256_new($0.baseAddress, $0.count) }) else { return nil }
        self.context = context
    }

    deinit { EVP_MAC_CTX_free(context) }

    /// The 32-byte HMAC of `message`; empty (which no compare accepts) if OpenSSL failed.
    func authenticationCode(for message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        // `withLock { }`, not `{ _ in }`: ThreadSanitizer sees the inout access to a `Lock`'s empty
        // value at the lock object's first bytes, which another thread reads on its way in.
        let status = lock.withLock {
            message.withUnsafeBufferPointer { bytes in
                out.withUnsafeMutableBufferPointer { copenssl_hmac_sha256(context, bytes.baseAddress, bytes.count, $0.baseAddress) }
            }
        }
        return status == 1 ? out : []
    }
}

/// OpenSSL refused: the parameters (scrypt's memory), or no randomness to be had.
public enum CryptoError: Error, CustomStringConvertible {
    case scryptFailed, randomFailed

    public var description: String {
        switch self {
        case .scryptFailed: "scrypt failed: its parameters need more memory than allowed (ln at most 20, r × p below 2^30)"
        case .randomFailed: "the system's random generator gave no bytes"
        }
    }
}
