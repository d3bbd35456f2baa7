import Testing

@testable import MicroHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// A peer's address as text: written by hand for IPv4, checked against `inet_ntop`.
@Suite struct SocketAddressTests {
    /// `describe` of any `sockaddr_*`.
    static func describe<Address>(_ address: inout Address) -> String? {
        withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress.describe($0) } }
    }

    @Test(arguments: [
        "0.0.0.0", "127.0.0.1", "10.0.0.9", "192.0.2.1", "255.255.255.255", "1.20.100.200", "100.10.1.0", "203.0.113.99",
    ])
    func ipv4IsWrittenAsInetNtopWritesIt(literal: String) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        #expect(inet_pton(AF_INET, literal, &address.sin_addr) == 1)
        #expect(Self.describe(&address) == literal)
    }

    @Test func everyOctetValueRoundTrips() {
        for value in 0...255 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(value << 24 | (255 - value) << 16 | value << 8 | 7).bigEndian
            #expect(Self.describe(&address) == "\(value).\(255 - value).\(value).7")
        }
    }

    @Test(arguments: ["::1", "::", "2001:db8::8a2e:370:7334", "fe80::1", "::ffff:192.0.2.1"])
    func ipv6IsWrittenByInetNtop(literal: String) throws {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        #expect(inet_pton(AF_INET6, literal, &address.sin6_addr) == 1)
        #expect(Self.describe(&address) == literal)
    }

    @Test func otherFamiliesHaveNoText() {
        var address = sockaddr()
        address.sa_family = sa_family_t(AF_UNIX)
        #expect(SocketAddress.describe(&address) == nil)
    }
}
