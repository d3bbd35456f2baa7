import ByteWriters
import MicroHTTP
import TableKit

/// Strong validators: a 64-bit hash of a buffered body's bytes, or of what a versioned list's
/// bytes are made from, quoted.
enum ETag {
    /// The validator of a list whose controller has a ``TableController/contentVersion``: the
    /// rendering seed (build, site, templates), the version, the list, the format and whether
    /// the path named it (its links differ), and the query as received.
    static func derived(seed: UInt64, version: String, route: String, format: ListFormat, path: ListFormat, query: String?) -> String {
        var hash = StableHash()
        hash.combine(seed)
        hash.combine(version)
        hash.combine(route)
        hash.combine(format.name)
        hash.combine(path == .page ? 0 : 1)
        hash.combine(query ?? "")
        // FNV's last bytes reach only part of the value: mixed (MurmurHash3's finaliser) so that
        // queries one digit apart differ in every hex digit.
        var value = hash.value
        value = (value ^ (value >> 33)) &* 0xff51_afd7_ed55_8ccd
        value = (value ^ (value >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        return EntityTag.quoted(value ^ (value >> 33))
    }

    static func of(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes(of)
    }

    static func of(_ raw: UnsafeRawBufferPointer) -> String {
        // Four independent lanes of multiply-xor over 32 bytes a step, folded at the end: a
        // validator, not a cryptographic hash, at a fraction of a cycle per byte.
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (0xcbf2_9ce4_8422_2325, 0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f, 0x1656_67b1_9e37_79f9)
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var hash: UInt64 = 0
        do {
            var index = 0
            let count = raw.count
            while index + 32 <= count {
                lanes.0 = (lanes.0 ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* prime
                lanes.1 = (lanes.1 ^ raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)) &* prime
                lanes.2 = (lanes.2 ^ raw.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)) &* prime
                lanes.3 = (lanes.3 ^ raw.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)) &* prime
                index += 32
            }
            hash = lanes.0 ^ (lanes.1 >> 7 | lanes.1 << 57) ^ (lanes.2 >> 19 | lanes.2 << 45) ^ (lanes.3 >> 31 | lanes.3 << 33)
            while index < count {
                hash = (hash ^ UInt64(raw[index])) &* prime
                index += 1
            }
        }
        hash ^= hash >> 29
        hash ^= UInt64(raw.count)
        return EntityTag.quoted(hash)
    }

    /// Adds `etag` to `headers`; the 304 (with those headers) when the request's `If-None-Match`
    /// names it, nil when the page is to be sent.
    static func validate(_ etag: String, headers: inout HTTPHeaders, request: Request) -> Response? {
        headers.add(name: "ETag", value: etag)
        guard EntityTag.ifNoneMatch(request.headers["If-None-Match"], names: etag) else { return nil }
        return Response(status: .notModified, headers: headers, body: .empty)
    }
}
