import MicroHTTP
import Testing

@Suite struct QueryItemsTests {
    @Test func repeatedKeysKeepOrder() throws {
        let query = try QueryItems(parsing: "tag=a&x=1&tag=b")
        #expect(query["tag"] == "a")
        #expect(query.values(for: "tag") == ["a", "b"])
        #expect(query.count == 3)
    }

    @Test func removeAllKeepsTheOthersInOrder() throws {
        var query = try QueryItems(parsing: "offset=1&q=a&limit=2&q=b&offset=3")
        query.removeAll { $0.name == "offset" || $0.name == "limit" }
        #expect(query.percentEncoded == "q=a&q=b")
        query.removeAll { _ in false }
        #expect(query.count == 2)
        query.removeAll { _ in true }
        #expect(query.isEmpty)
    }

    @Test func plusAndPercentDecodeToSpace() throws {
        let query = try QueryItems(parsing: "q=hello+world&r=hello%20world&s=a%2Bb&t=%26%3D")
        #expect(query["q"] == "hello world")
        #expect(query["r"] == "hello world")
        #expect(query["s"] == "a+b")
        #expect(query["t"] == "&=")
    }

    @Test func emptyValuesAndEmptyItems() throws {
        let query = try QueryItems(parsing: "a=1&&b&c=&=d&")
        #expect(query.map(\.name) == ["a", "b", "c", ""])
        #expect(query["b"] == "")
        #expect(query["c"] == "")
        #expect(query[""] == "d")
        #expect(query["missing"] == nil)
        #expect(try QueryItems(parsing: "").isEmpty)
    }

    @Test func valueMayContainEquals() throws {
        #expect(try QueryItems(parsing: "expr=a=b")["expr"] == "a=b")
    }

    @Test func unicode() throws {
        let query = try QueryItems(parsing: "name=J%C3%BCrgen&emoji=%F0%9F%8D%B7&raw=caf\u{E9}")
        #expect(query["name"] == "Jürgen")
        #expect(query["emoji"] == "🍷")
        #expect(query["raw"] == "café")
    }

    @Test(arguments: ["a=%zz", "a=%", "a=%2", "a=1&b=%g0", "%zz=1", "a=%C3%28", "a=%FF"])
    func malformedIsBadRequest(_ raw: String) {
        do {
            _ = try QueryItems(parsing: raw)
            Issue.record("\(raw) should not parse")
        } catch {
            #expect(error.status == .badRequest)
            #expect(!error.message.isEmpty)
        }
    }

    /// Every ASCII byte arrives as itself, raw or percent-encoded, controls and DEL included (ASCII
    /// takes a path of its own, without the generic UTF-8 validator).
    @Test func everyASCIIByteIsItsOwnCharacter() throws {
        for byte in UInt8(0)..<0x80 where ![UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "%"), UInt8(ascii: "+")].contains(byte) {
            let raw = try QueryItems(parsing: Array("k=a".utf8) + [byte] + Array("b".utf8))
            #expect(raw["k"].map { Array($0.utf8) } == [UInt8(ascii: "a"), byte, UInt8(ascii: "b")], "byte \(byte)")
        }
        for byte in UInt8(0)..<0x80 {
            let escaped = "k=%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            let decoded = try QueryItems(parsing: escaped)
            #expect(decoded["k"].map { Array($0.utf8) } == [byte], "byte \(byte)")
        }
        // Non-ASCII beside ASCII still goes through validation, both ways.
        #expect(try QueryItems(parsing: Array("k=a".utf8) + [0xC3, 0xA9])["k"] == "aé")
        #expect(throws: HTTPError.self) { try QueryItems(parsing: Array("k=a".utf8) + [0xC3]) }
    }

    /// Bytes that are not UTF-8 as they arrive (no escape to decode) are refused too, in a name or
    /// a value, and so is a lone continuation byte next to plain text.
    @Test(arguments: [[0xFF], [0xC3, 0x28], [0x80], [0xED, 0xA0, 0x80]] as [[UInt8]])
    func rawBytesThatAreNotUTF8AreBadRequest(_ bad: [UInt8]) {
        for raw in [Array("a=".utf8) + bad, bad + Array("=1".utf8), Array("ok=1&b=x".utf8) + bad] {
            do {
                _ = try QueryItems(parsing: raw)
                Issue.record("\(raw) should not parse")
            } catch {
                #expect(error.status == .badRequest)
                #expect(error.message.contains("UTF-8"))
            }
        }
    }

    @Test func encodingRoundTrips() throws {
        let query: QueryItems = ["q": "a b&c=d/é", "empty": ""]
        #expect(query.percentEncoded == "q=a+b%26c%3Dd%2F%C3%A9&empty=")
        #expect(try QueryItems(parsing: query.percentEncoded) == query)
    }

    @Test func requestFromTarget() throws {
        let request = try Request(target: "/people?offset=20&limit=10")
        #expect(request.path == "/people")
        #expect(request.rawQuery == "offset=20&limit=10")
        #expect(request.query["limit"] == "10")
        #expect(throws: HTTPError.self) { try Request(target: "/x?a=%zz") }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
