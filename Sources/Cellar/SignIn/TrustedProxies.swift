#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The proxies whose word is taken (`--trusted-proxy CIDR…`): for the client's address
/// (`X-Forwarded-For`), for HTTPS (`X-Forwarded-Proto`), and for who is signed in (the
/// `--identity-header`, from a proxy that signs people in: oauth2-proxy, Tailscale).
///
/// Such a proxy must overwrite the identity header, never pass a client's own on:
/// `deploy/nginx/nginx.conf` shows how.
public struct TrustedProxies: Sendable, Equatable {
    /// An address range, `10.0.0.0/8`, `fd00::/8`, or one address.
    public struct Range: Sendable, Equatable, CustomStringConvertible {
        let bytes: [UInt8]
        let prefixLength: Int

        public init(_ text: String) throws(TrustedProxyError) {
            let parts = text.split(separator: "/", maxSplits: 1)
            guard let first = parts.first, let bytes = TrustedProxies.bytes(of: String(first)) else { throw .badRange(text) }
            let length = parts.count > 1 ? Int(parts[1]) : bytes.count * 8
            guard let length, (0...(bytes.count * 8)).contains(length) else { throw .badRange(text) }
            self.bytes = bytes
            prefixLength = length
        }

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefixLength
            for (mine, theirs) in zip(bytes, address) where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if mine & mask != theirs & mask { return false }
                remaining -= bits
            }
            return true
        }

        public var description: String { "\(bytes.count == 4 ? "IPv4" : "IPv6")/\(prefixLength)" }
    }

    public var ranges: [Range] = []

    public init(_ ranges: [Range] = []) { self.ranges = ranges }

    public var isEmpty: Bool { ranges.isEmpty }

    /// Whether `address` is one of the proxies'.
    public func contains(_ address: String) -> Bool {
        guard !ranges.isEmpty, let bytes = Self.bytes(of: address) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    /// The client's address as the limiter counts it: the peer's, or, from a trusted proxy, the
    /// right-most `X-Forwarded-For` entry outside the proxies' ranges; an IPv6 address counted
    /// per /64 (one host holds a whole /64).
    func clientKey(remote: String?, forwardedFor: String?) -> String {
        guard let remote else { return "unknown" }
        var client = remote
        if contains(remote), let forwardedFor {
            for entry in forwardedFor.split(separator: ",").reversed() {
                let address = String(entry).trimmed(of: " \t")
                guard Self.bytes(of: address) != nil else { break }
                client = address
                if !contains(address) { break }
            }
        }
        guard let bytes = Self.bytes(of: client), bytes.count == 16 else { return client }
        return bytes.prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined() + "::/64"
    }

    /// 4 or 16 bytes, or nil when `text` is no address (an IPv4-mapped IPv6 address is its IPv4 one).
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes.suffix(4)) }
        return bytes
    }
}

extension String {
    fileprivate func trimmed(of set: String) -> String {
        var result = Substring(self)
        while let first = result.first, set.contains(first) { result.removeFirst() }
        while let last = result.last, set.contains(last) { result.removeLast() }
        return String(result)
    }
}

public enum TrustedProxyError: Error, CustomStringConvertible {
    case badRange(String)

    public var description: String {
        switch self {
        case .badRange(let text): "'\(text)' is not an address or a range (10.0.0.0/8, 127.0.0.1, fd00::/8)"
        }
    }
}
