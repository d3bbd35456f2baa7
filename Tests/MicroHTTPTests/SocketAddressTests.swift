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

    /// IPv4 is written by hand, IPv6 by `inet_ntop`: either way the text is what `inet_ntop` writes
    /// (the address is made by the server's own parser, `inet_pton`).
    @Test(arguments: [
        "0.0.0.0", "127.0.0.1", "10.0.0.9", "192.0.2.1", "255.255.255.255", "1.20.100.200", "100.10.1.0", "203.0.113.99",
        "::1", "::", "2001:db8::8a2e:370:7334", "fe80::1", "::ffff:192.0.2.1",
    ])
    func addressesAreWrittenAsInetNtopWritesThem(literal: String) throws {
        let address = try SocketAddress(host: literal, port: 80)
        #expect(address.withSockAddr { SocketAddress.describe($0.assumingMemoryBound(to: sockaddr.self)) } == literal)
    }

    @Test func everyOctetValueRoundTrips() {
        for value in 0...255 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(value << 24 | (255 - value) << 16 | value << 8 | 7).bigEndian
            #expect(Self.describe(&address) == "\(value).\(255 - value).\(value).7")
        }
    }

    @Test func otherFamiliesHaveNoText() {
        var address = sockaddr()
        address.sa_family = sa_family_t(AF_UNIX)
        #expect(SocketAddress.describe(&address) == nil)
    }
}
