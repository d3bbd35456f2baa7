import ByteWriters

/// Entity tags (RFC 9110 §8.8.3), the validators of responses: how they are written, and the
/// one test of `If-None-Match` against them (static files and lists alike).
public enum EntityTag {
    /// `hash` as a strong entity tag: `"`, sixteen lowercase hex digits, `"`. Written into the
    /// string's own storage, with no intermediate strings.
    public static func quoted(_ hash: UInt64) -> String {
        String(unsafeUninitializedCapacity: 18) { out in
            out[0] = UInt8(ascii: "\"")
            HexDigits.write(hash, count: 16, into: out, at: 1)
            out[17] = UInt8(ascii: "\"")
            return 18
        }
    }

    /// Whether an `If-None-Match` field value names `etag` (a quoted entity tag) or is `*`: the
    /// answer is then 304 Not Modified. Weak comparison (a `W/` prefix is ignored), as RFC 9110
    /// asks for GET and HEAD; false without the field.
    public static func ifNoneMatch(_ field: String?, names etag: String) -> Bool {
        guard let field else { return false }
        return field.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingSpaces()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag
        }
    }
}
