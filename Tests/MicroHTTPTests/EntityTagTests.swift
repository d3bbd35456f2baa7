import MicroHTTP
import Testing

/// The one `If-None-Match` test, which static files and lists share.
@Suite struct EntityTagTests {
    @Test func ifNoneMatchNamesTheTagWeaklyInAListOrAsAStar() {
        let etag = "\"00ff\""
        let matching = ["\"00ff\"", "W/\"00ff\"", "*", " \"00ff\" ", "\t\"00ff\"", "\"a\", \"00ff\"", "\"a\",W/\"00ff\",\"b\"", " * "]
        for field in matching {
            #expect(EntityTag.ifNoneMatch(field, names: etag), "\(field)")
        }
        let other = ["", "\"00fe\"", "00ff", "\"00FF\"", "w/\"00ff\"", "\"a\", \"b\"", "**", "\"00ff"]
        for field in other {
            #expect(!EntityTag.ifNoneMatch(field, names: etag), "\(field)")
        }
        #expect(!EntityTag.ifNoneMatch(nil, names: etag))
    }

    @Test func aTagIsSixteenLowercaseHexDigitsInQuotes() {
        #expect(EntityTag.quoted(0) == "\"0000000000000000\"")
        #expect(EntityTag.quoted(0x0123_4567_89AB_CDEF) == "\"0123456789abcdef\"")
        #expect(EntityTag.quoted(.max) == "\"ffffffffffffffff\"")
    }
}
