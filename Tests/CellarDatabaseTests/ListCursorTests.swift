import Testing

@testable import CellarDatabase

/// A cursor is data from a URL: it reads back exactly what was written, and nothing else.
struct ListCursorTests {
    @Test(arguments: [
        "plain", "", "a.b.c", "100%", "%2E", "\u{06E4}starts with a combining mark", "ends with a dot.",
        ".\u{0301}", "t\u{0301}", "emoji 🍷 and NUL \u{0}", String(repeating: "x.%", count: 300),
    ])
    func textsReadBackExactly(text: String) throws {
        let cursor = ListCursor(position: 42, orderSignature: 7, values: [.text(text), .integer(-3), .null, .real(0.1), .blob([0, 255])])
        let token = try #require(cursor.token)
        let read = try #require(ListCursor(token: token, orderSignature: 7, valueCount: 5))
        #expect(read == cursor)
        #expect(
            token.utf8.allSatisfy {
                $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || ($0 < 0x80 && Character(UnicodeScalar($0)).isLetter)
                    || ($0 >= 0x30 && $0 <= 0x39)
            })
    }

    @Test func aCursorTooLongForAURLIsNotWritten() throws {
        let long = String(repeating: "a", count: 2_000)
        let fits = try #require(ListCursor(position: 1, orderSignature: 1, values: [.text(long)]).token)
        #expect(fits.utf8.count <= ListCursor.longestToken)
        #expect(ListCursor(position: 1, orderSignature: 1, values: [.text(long), .text(long)]).token == nil)
        #expect(ListCursor(position: 1, orderSignature: 1, values: [.text(String(repeating: ".", count: 1_500))]).token == nil)
        #expect(ListCursor(position: 1, orderSignature: 1, values: [.blob(Array(repeating: 7, count: 1_600))]).token == nil)
    }

    @Test func aCursorIsReadOnlyUnderItsOwnOrderAndShape() throws {
        let token = try #require(ListCursor(position: 10, orderSignature: 1, values: [.integer(5)]).token)
        #expect(ListCursor(token: token, orderSignature: 2, valueCount: 1) == nil, "another order")
        #expect(ListCursor(token: token, orderSignature: 1, valueCount: 2) == nil, "another number of sort keys")
        #expect(ListCursor(token: "not a cursor", orderSignature: 1, valueCount: 1) == nil)
        #expect(ListCursor(token: String(repeating: "A", count: 20_000), orderSignature: 1, valueCount: 1) == nil)
    }

    @Test func aPositionPastTheLargestIsRefused() throws {
        let token = try #require(ListCursor(position: Int.max, orderSignature: 1, values: [.integer(5)]).token)
        #expect(ListCursor(token: token, orderSignature: 1, valueCount: 1) == nil)
    }
}
