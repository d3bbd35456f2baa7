import MicroHTTP
import Testing

@testable import Cellar

/// `Page` (the window a request asks for) and `PageLinks` (the URLs around it), without sockets.
@Suite struct PagingTests {
    static func page(_ query: String, _ paging: ListPaging = .paged, total: Int) throws -> Page {
        try Page(query: QueryItems(parsing: query), paging: paging, total: total)
    }

    @Test func defaults() throws {
        let page = try Self.page("", total: 120)
        #expect(page.offset == 0 && page.limit == 50 && page.total == 120 && page.maxLimit == 500)
        #expect(page.requestedLimit == nil && !page.limitClamped)
        #expect(page.window == 0..<50)
        #expect(page.nextOffset == 50)
        #expect(page.previousOffset == nil)
        // An empty value is the default too.
        #expect(try Self.page("offset=&limit=", total: 120) == page)
    }

    @Test func windowsNextAndPrevious() throws {
        let middle = try Self.page("offset=10&limit=20", total: 100)
        #expect(middle.window == 10..<30)
        #expect(middle.nextOffset == 30)
        #expect(middle.previousOffset == 0, "a previous page never starts before 0")
        let last = try Self.page("offset=90&limit=20", total: 100)
        #expect(last.window == 90..<100)
        #expect(last.nextOffset == nil)
        #expect(last.previousOffset == 70)
        let exact = try Self.page("offset=80&limit=20", total: 100)
        #expect(exact.nextOffset == nil)
    }

    @Test func clamping() throws {
        let high = try Self.page("limit=600", .pages(defaultLimit: 10, maxLimit: 100), total: 1_000)
        #expect(high.limit == 100)
        #expect(high.requestedLimit == 600)
        #expect(high.limitClamped)
        #expect(high.maxLimit == 100)
        let zero = try Self.page("limit=0", total: 1_000)
        #expect(zero.limit == 1)
        #expect(zero.limitClamped)
        #expect(zero.window == 0..<1)
        let atMaximum = try Self.page("limit=500", total: 1_000)
        #expect(!atMaximum.limitClamped)
        let past = try Self.page("offset=5000", total: 100)
        #expect(past.offset == 100)
        #expect(past.window.isEmpty)
        #expect(past.nextOffset == nil)
        #expect(past.previousOffset == 50)
        let huge = try Self.page("offset=" + String(repeating: "9", count: 10_000) + "&limit=" + String(repeating: "8", count: 5_000), total: 10)
        #expect(huge.offset == 10)
        #expect(huge.limit == 500)
        #expect(huge.requestedLimit == PageRequest.ceiling)
        let empty = try Self.page("", total: 0)
        #expect(empty.window.isEmpty)
        #expect(empty.nextOffset == nil)
    }

    @Test func unpaged() throws {
        let all = try Self.page("", .unpaged, total: 1_000_000)
        #expect(all.window == 0..<1_000_000)
        #expect(all.maxLimit == nil)
        #expect(!all.limitClamped)
        #expect(all.nextOffset == nil)
        let limited = try Self.page("offset=10&limit=5", .unpaged, total: 100)
        #expect(limited.window == 10..<15)
        let rest = try Self.page("offset=90", .unpaged, total: 100)
        #expect(rest.window == 90..<100)
        #expect(try Self.page("limit=0", .unpaged, total: 100).window == 0..<1)
        #expect(try Self.page("", .unpaged, total: 0).window.isEmpty)
    }

    @Test(arguments: ["abc", "-1", "1.5", "0x10", " 1", "1 ", "١٢", "+1", "1e3", "--1", "-"])
    func malformedValuesAreBadRequests(value: String) throws {
        for name in ["offset", "limit"] {
            var query = QueryItems()
            query.append(name: name, value: value)
            let error = try #require(throws: HTTPError.self) { try Page(query: query, paging: .paged, total: 100) }
            #expect(error.status == .badRequest)
            #expect(error.message.hasPrefix(name + " must"), "\(error.message)")
            if value == "-1" { #expect(error.message == "\(name) must not be negative (got -1).") }
        }
    }

    @Test func aLongMalformedValueIsShortenedInTheMessage() throws {
        let value = String(repeating: "x", count: 10_000)
        let error = try #require(throws: HTTPError.self) { try Self.page("offset=" + value, total: 10) }
        #expect(error.message.count < 200)
        #expect(error.message.contains(String(repeating: "x", count: 40) + "…"))
    }

    @Test func linksKeepOtherQueryItemsAndDropPagingOnes() throws {
        let query = try QueryItems(parsing: "q=a%20b%26c&offset=20&limit=10&fragment=rows&tag=x")
        let page = try Page(query: query, paging: .paged, total: 100)
        let links = PageLinks(path: "/catalog", query: query, page: page)
        #expect(links.url(offset: page.offset) == "/catalog?q=a+b%26c&tag=x&offset=20&limit=10")
        #expect(links.url(offset: 0) == "/catalog?q=a+b%26c&tag=x&offset=0&limit=10")
        #expect(page.previousOffset.map { links.url(offset: $0) } == "/catalog?q=a+b%26c&tag=x&offset=10&limit=10")
        #expect(page.nextOffset.map { links.url(offset: $0) } == "/catalog?q=a+b%26c&tag=x&offset=30&limit=10")
        #expect(links.url(offset: 30, fragment: true) == "/catalog?q=a+b%26c&tag=x&offset=30&limit=10&fragment=rows")
        #expect(PageLinks(path: "/catalog.json", query: query, page: page).url(offset: 0) == "/catalog.json?q=a+b%26c&tag=x&offset=0&limit=10")
        #expect(
            links.header
                == "</catalog?q=a+b%26c&tag=x&offset=30&limit=10>; rel=\"next\", </catalog?q=a+b%26c&tag=x&offset=10&limit=10>; rel=\"prev\", </catalog?q=a+b%26c&tag=x&offset=0&limit=10>; rel=\"first\""
        )
    }

    @Test func linksAtTheEdges() throws {
        let firstPage = try Self.page("", total: 60)
        let first = PageLinks(path: "/people", query: QueryItems(), page: firstPage)
        #expect(firstPage.previousOffset == nil)
        #expect(firstPage.nextOffset.map { first.url(offset: $0) } == "/people?offset=50&limit=50")
        #expect(first.header == "</people?offset=50&limit=50>; rel=\"next\", </people?offset=0&limit=50>; rel=\"first\"")
        let onlyPage = try Self.page("", total: 10)
        let only = PageLinks(path: "/people", query: QueryItems(), page: onlyPage)
        #expect(onlyPage.nextOffset == nil && onlyPage.previousOffset == nil)
        #expect(only.header == "</people?offset=0&limit=50>; rel=\"first\"")
        // The limit in the links is the clamped one.
        let clampedPage = try Self.page("limit=9999", total: 2_000)
        let clamped = PageLinks(path: "/people", query: try QueryItems(parsing: "limit=9999"), page: clampedPage)
        #expect(clampedPage.nextOffset.map { clamped.url(offset: $0) } == "/people?offset=500&limit=500")
        // Only paging items, repeated: nothing is kept.
        let pagingOnly = PageLinks(path: "/people", query: try QueryItems(parsing: "offset=5&limit=10&fragment=rows&limit=3"), page: firstPage)
        #expect(pagingOnly.url(offset: 0) == "/people?offset=0&limit=50")
        // One other item among them keeps its place and its encoding.
        let mixed = PageLinks(path: "/people", query: try QueryItems(parsing: "offset=5&q=%3Cb%3E&limit=10"), page: firstPage)
        #expect(mixed.url(offset: 0) == "/people?q=%3Cb%3E&offset=0&limit=50")
    }

    /// The bytes the pages write their links from (`withURL`), spelled out: for short prefixes
    /// (written on the stack) and a query long enough to need the heap, at offsets up to `Int.max`.
    @Test func lentURLBytesAreThePageURLs() throws {
        let long = String(repeating: "z", count: 20_000)
        let cases = [
            ("/people", "", "/people?", 50),
            ("/catalog", "q=a+b%26c&tag=x&offset=20&limit=10", "/catalog?q=a+b%26c&tag=x&", 10),
            ("/xss", "q=%3Cb%3E&q=\u{1F377}", "/xss?q=%3Cb%3E&q=%F0%9F%8D%B7&", 50),
            ("/people", "q=\(long)", "/people?q=\(long)&", 50),
        ]
        for (path, query, prefix, limit) in cases {
            let items = try QueryItems(parsing: query)
            let links = PageLinks(path: path, query: items, page: try Page(query: items, paging: .paged, total: 1_000))
            for offset in [0, 7, 50, 999, Int.max] {
                for fragment in [false, true] {
                    let expected = prefix + "offset=\(offset)&limit=\(limit)" + (fragment ? "&fragment=rows" : "")
                    #expect(links.url(offset: offset, fragment: fragment) == expected)
                }
            }
        }
    }

    /// `ListPaging.paged` is a value, not a reference to an enum case's constructor.
    @Test func thePagedDefaultIsUnambiguous() {
        let paging = ListPaging.paged
        #expect(paging == .pages(defaultLimit: 50, maxLimit: 500))
        #expect(PageRequest(firstOf: paging).limit == 50)
    }
}

extension PageLinks {
    /// The URL ``withURL(offset:fragment:_:)`` lends, as a string.
    func url(offset: Int, fragment: Bool = false) -> String {
        withURL(offset: offset, fragment: fragment) { String(decoding: $0, as: UTF8.self) }
    }

}
