import MicroHTTP
import Testing

@Suite struct RequestTests {
    static func original() throws -> Request {
        try Request(method: .post, target: "/people/42?sort=name", headers: ["Accept": "text/html"], body: Array("name=Ada".utf8))
    }

    /// The fields a request was received with are shared by its copies until one of them sets one:
    /// then that copy alone changes, as with any value.
    @Test func settingAFieldOfACopyLeavesTheOriginalAsItWas() throws {
        let original = try Self.original()
        var copy = original
        copy.method = .get
        copy.path = "/people"
        copy.rawQuery = nil
        copy.query = QueryItems()
        copy.headers.add(name: "X-Extra", value: "1")
        copy.body = []
        copy.id = "0000000000000001"
        copy.remoteAddress = "192.0.2.1"
        copy.route = "/people"
        copy.actor = "ada"

        #expect(original.method == .post)
        #expect(original.path == "/people/42")
        #expect(original.rawPath == "/people/42")
        #expect(original.rawQuery == "sort=name")
        #expect(original.query["sort"] == "name")
        #expect(original.headers.count == 1 && original.headers["X-Extra"] == nil)
        #expect(original.body == Array("name=Ada".utf8))
        #expect(original.id != "0000000000000001")
        #expect(original.remoteAddress == nil)
        #expect(original.route == nil && original.actor == nil)

        #expect(copy.method == .get)
        #expect(copy.path == "/people")
        #expect(copy.rawPath == "/people/42")
        #expect(copy.rawQuery == nil && copy.query.isEmpty)
        #expect(copy.headers["X-Extra"] == "1" && copy.headers["Accept"] == "text/html")
        #expect(copy.body.isEmpty)
        #expect(copy.id == "0000000000000001")
        #expect(copy.remoteAddress == "192.0.2.1")
    }

    /// Two copies changed one after the other each keep their own change.
    @Test func twoCopiesKeepTheirOwnChanges() throws {
        var first = try Self.original()
        var second = first
        first.path = "/first"
        second.path = "/second"
        first.path += "/again"
        #expect(first.path == "/first/again")
        #expect(second.path == "/second")
        #expect(first.id == second.id)
    }
}
