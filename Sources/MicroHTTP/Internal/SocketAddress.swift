import ByteWriters

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 socket address to bind, parsed from a host literal.
struct SocketAddress {
    enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    let storage: Storage

    var isIPv6: Bool {
        if case .v6 = storage { return true }
        return false
    }

    /// Parses `127.0.0.1`, `0.0.0.0`, `::1`, `[::1]`, `::` or `localhost` (→ 127.0.0.1).
    init(host: String, port: Int) throws(ServerError) {
        var literal = host == "localhost" ? "127.0.0.1" : host
        if literal.hasPrefix("[") && literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            storage = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            storage = .v6(v6)
            return
        }
        throw ServerError.invalidHost(host)
    }

    /// The size of the `sockaddr` ``withSockAddr(_:)`` passes.
    var length: socklen_t {
        switch storage {
        case .v4: socklen_t(MemoryLayout<sockaddr_in>.size)
        case .v6: socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
    }

    /// Calls `body` with a pointer to the `sockaddr` (valid only during the call).
    func withSockAddr<Result>(_ body: (UnsafeMutableRawPointer) throws -> Result) rethrows -> Result {
        switch storage {
        case .v4(var address): return try withUnsafeMutableBytes(of: &address) { try body($0.baseAddress!) }
        case .v6(var address): return try withUnsafeMutableBytes(of: &address) { try body($0.baseAddress!) }
        }
    }

    /// The printable IP address of a peer (`192.0.2.1`, `::1`), or nil. Made for every request:
    /// IPv4 is written digit by digit on the stack, IPv6 by `inet_ntop` into a stack buffer.
    static func describe(_ address: UnsafePointer<sockaddr>) -> String? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let v4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            let octets = UInt32(bigEndian: v4.sin_addr.s_addr)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { text in
                var count = 0
                for shift in stride(from: 24, through: 0, by: -8) {
                    let octet = UInt64(truncatingIfNeeded: (octets >> UInt32(shift)) & 0xFF)
                    count += DecimalDigits.write(octet, into: text.baseAddress! + count)
                    if shift > 0 {
                        text[count] = UInt8(ascii: ".")
                        count += 1
                    }
                }
                return String(decoding: UnsafeBufferPointer(rebasing: text[..<count]), as: UTF8.self)
            }
        case AF_INET6:
            var v6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { text in
                guard let base = text.baseAddress, inet_ntop(AF_INET6, &v6.sin6_addr, base, socklen_t(text.count)) != nil else { return nil }
                return String(cString: base)
            }
        default:
            return nil
        }
    }
}
