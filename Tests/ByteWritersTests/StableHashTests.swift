import ByteWriters
import Testing

@Suite struct StableHashTests {
    /// FNV-1a, 64 bits, over each text's length (eight bytes, least significant first) and then its bytes.
    @Test func stableHashIsFNV1aOverLengthAndBytes() {
        var hash = StableHash()
        #expect(hash.value == 0xcbf2_9ce4_8422_2325)
        hash.combine("a")
        #expect(hash.value == 0x529a_4ddc_8ff5_6bbf)
        var split = StableHash()
        split.combine("ab")
        split.combine("c")
        var other = StableHash()
        other.combine("a")
        other.combine("bc")
        #expect(split.value != other.value)
    }

    /// Bytes are mixed in as a text's are: a row's bytes and the same text digest alike, and a byte
    /// changed anywhere changes the digest.
    @Test func bytesHashAsTheSameText() {
        var text = StableHash()
        text.combine("<li id=\"row-1\">Å</li>")
        var bytes = StableHash()
        bytes.combine(bytes: Array("<li id=\"row-1\">Å</li>".utf8))
        #expect(bytes.value == text.value)
        var changed = StableHash()
        changed.combine(bytes: Array("<li id=\"row-2\">Å</li>".utf8))
        #expect(changed.value != text.value)
    }
}
