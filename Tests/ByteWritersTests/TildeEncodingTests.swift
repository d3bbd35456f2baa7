import ByteWriters
import Testing

/// Datasette's tilde-encoding of keys, which the write API decodes for tables and app lists alike.
@Suite struct TildeEncodingTests {
    @Test func encodesAsDatasetteWritesAKey() {
        #expect(TildeEncoding.encoded("a/b") == "a~2Fb")
        #expect(TildeEncoding.encoded("c,d") == "c~2Cd")
        #expect(TildeEncoding.encoded("e~f.json") == "e~7Ef~2Ejson")
        #expect(TildeEncoding.encoded("x y") == "x~20y")
        #expect(TildeEncoding.encoded("Az09_-") == "Az09_-")
        #expect(TildeEncoding.encoded("é") == "~C3~A9")
    }

    @Test func decodesWhatItEncodes() {
        for text in ["a/b", "c,d", "e~f", "~7E", "x y", "<script>", "é€😀", "", "100%"] {
            #expect(TildeEncoding.decoded(TildeEncoding.encoded(text)) == text)
        }
    }

    @Test func leavesWhatIsNotAnEscapeAsItIs() {
        #expect(TildeEncoding.decoded("a~2") == "a~2")
        #expect(TildeEncoding.decoded("a~zz") == "a~zz")
        #expect(TildeEncoding.decoded("~") == "~")
        #expect(TildeEncoding.decoded("a+b") == "a+b")
        #expect(TildeEncoding.decoded("a%2Cb") == "a%2Cb")
        #expect(TildeEncoding.decoded("~2c~2C") == ",,")
    }
}
