import Foundation
import HTTPTestSupport
import Testing

/// Paging over HTTP: defaults, clamping, empty windows, 400s for malformed values, and walking a
/// list by its `next` links.
extension CellarHTTPTests {
    @Suite struct PagingOverHTTP {
        @Test func followingNextFromTheFirstJSONPageVisitsEveryPersonOnce() throws {
            let server = try TestServer.showcase(people: 10_000)
            var target: String? = "/people.json"
            var ids: [String] = []
            var pages = 0
            var previousOffset = -1
            while let next = target {
                let page = try server.list(next)
                #expect(page.meta.offset > previousOffset)
                #expect(page.meta.total == 10_000)
                #expect((page.links.prev == nil) == (pages == 0))
                previousOffset = page.meta.offset
                ids += page.rows.map(\.id)
                target = page.links.next
                pages += 1
                if pages > 1000 { break }
            }
            #expect(pages == 200)
            #expect(ids.count == 10_000)
            #expect(Set(ids).count == 10_000, "no row twice")
            #expect(Set(ids) == Set((1...10_000).map(String.init)), "every person")
        }

        @Test func followingNextWithAcceptJSONKeepsToTheSamePath() throws {
            let server = try TestServer.showcase(people: 120)
            var target: String? = "/people?limit=30"
            var ids: [String] = []
            while let next = target {
                #expect(next.hasPrefix("/people?"))
                let page = try server.list(next, accept: true)
                ids += page.rows.map(\.id)
                target = page.links.next
                if ids.count > 1000 { break }
            }
            #expect(ids == (1...120).map(String.init))
        }

        @Test func followingTheRelNextLinksOfThePagesVisitsEveryRowOnce() throws {
            let server = try TestServer.showcase()
            let everything = try server.list("/catalog.json").rows.map(\.id)
            #expect(everything.count == 25)
            var target: String? = "/catalog?limit=4"
            var seen: [String] = []
            var pages = 0
            while let next = target {
                let response = try server.get(next)
                #expect(response.status == 200)
                let elements = try HTMLInspector.elements(response.body)
                seen += elements.filter { $0.tag == "li" && $0.hasClass("cell") }.compactMap { $0.attributes["id"] }
                    .map { String($0.dropFirst("row-".count)).removingPercentEncoding ?? $0 }
                let nextLinks = elements.filter { $0.tag == "a" && $0.attributes["rel"] == "next" }
                #expect(nextLinks.count <= 1)
                target = nextLinks.first?.attributes["href"]
                // The pager's link and the Link header agree.
                #expect(target == response.links["next"])
                pages += 1
                if pages > 100 { break }
            }
            #expect(pages == 7)
            #expect(seen == everything)
        }

        @Test func defaultsAndMaximum() throws {
            let server = try TestServer.showcase()
            let defaults = try server.list("/people.json")
            #expect(defaults.meta == .init(offset: 0, limit: 50, total: 300, maxLimit: 500, requestedLimit: nil, limitClamped: false))
            #expect(defaults.rows.map(\.id) == (1...50).map(String.init))

            let second = try server.list("/people.json?offset=50&limit=20")
            #expect(second.meta == .init(offset: 50, limit: 20, total: 300, maxLimit: 500, requestedLimit: 20, limitClamped: false))
            #expect(second.rows.map(\.id) == (51...70).map(String.init))
            #expect(second.links.prev == "/people.json?offset=30&limit=20")
            #expect(second.links.next == "/people.json?offset=70&limit=20")

            let settings = try server.list("/settings.json")
            #expect(settings.meta.limit == 100)
            #expect(settings.meta.maxLimit == 100)
        }

        @Test func aLimitAboveTheMaximumIsClampedAndTheJSONSaysSo() throws {
            let server = try TestServer.showcase(people: 1_000)
            let clamped = try server.list("/people.json?limit=10000")
            #expect(clamped.meta == .init(offset: 0, limit: 500, total: 1_000, maxLimit: 500, requestedLimit: 10_000, limitClamped: true))
            #expect(clamped.rows.count == 500)
            #expect(clamped.links.next == "/people.json?offset=500&limit=500")
            // The page shows the clamped window too.
            let page = try server.get("/people?limit=10000")
            #expect(page.status == 200)
            #expect(page.body.occurrences(of: "<li class=\"cell ") == 500)
        }

        @Test func aLimitOfZeroShowsOneRow() throws {
            let server = try TestServer.showcase()
            let json = try server.list("/people.json?limit=0")
            #expect(json.rows.map(\.id) == ["1"])
            #expect(json.meta.limit == 1)
            #expect(json.meta.requestedLimit == 0)
            #expect(json.meta.limitClamped)
            #expect(json.links.next == "/people.json?offset=1&limit=1")
            #expect(try server.get("/people?limit=0").body.occurrences(of: "<li class=\"cell ") == 1)
        }

        @Test func anOffsetPastTheEndIsAnEmptyWindow() throws {
            let server = try TestServer.showcase()
            let json = try server.list("/people.json?offset=5000")
            #expect(json.rows.isEmpty)
            #expect(json.meta.total == 300)
            #expect(json.links.next == nil)
            #expect(json.links.prev != nil)
            let page = try server.get("/people?offset=5000")
            #expect(page.status == 200)
            #expect(page.body.occurrences(of: "<li class=\"cell ") == 0)
            let pager = try HTMLInspector.elements(page.body).first { $0.tag == "nav" && $0.hasClass("pager") }
            #expect(pager?.text.contains("No rows here; the list has 300") == true)
            let fragment = try server.get("/people?offset=300&fragment=rows")
            #expect(fragment.status == 200)
            #expect(fragment.body.occurrences(of: "<li") == 0)
        }

        static let malformed = ["abc", "-1", "1.5", "%zz", "0x10", "+5", "1e3", "%2D1", "%00", "12abc", "%E2%88%9E"]

        @Test(arguments: ["offset", "limit"], malformed)
        func malformedOrNegativeValuesAre400(name: String, value: String) throws {
            let server = try TestServer.showcase()
            let page = try server.get("/people?\(name)=\(value)")
            #expect(page.status == 400)
            #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
            let elements = try HTMLInspector.elements(page.body)
            #expect(elements.first { $0.tag == "h1" }?.text == "400 Bad Request")
            let message = try #require(elements.first { $0.tag == "p" && !$0.hasClass("request-id") }?.text)
            #expect(!message.isEmpty)

            for response in [try server.getAcceptingJSON("/people?\(name)=\(value)"), try server.get("/people.json?\(name)=\(value)")] {
                #expect(response.status == 400)
                #expect(response.headers["Content-Type"] == "application/json")
                let error = try ErrorJSON(parsing: response.body)
                #expect(error.error.status == 400)
                // The same message (as the page shows it: an HTML parser drops a NUL).
                #expect(HostileTextCanonical.canonical(error.error.message) == HostileTextCanonical.canonical(message))
                #expect(error.error.requestID == TestServer.requestID(response))
            }
            // Cellar's own message names the parameter (a malformed %-escape is refused earlier, by the query parser).
            if value != "%zz" {
                #expect(message.contains(name), "\(message)")
            }
            if value == "-1" || value == "%2D1" {
                #expect(message.contains("must not be negative"), "\(message)")
            }
        }

        /// Each link repeats the query: past `PageLinks.largestHeader` the header is left out, and the
        /// page still answers (three copies of a query near the head limit did not fit the connection).
        @Test func aLongQueryKeepsItsLinksInThePageButNotInTheHeader() throws {
            let server = try TestServer.showcase()
            for (length, inHeader) in [(600, true), (700, false), (8_000, false)] {
                let query = String(repeating: "y", count: length)
                let page = try server.get("/people?offset=10&limit=5&x=\(query)")
                #expect(page.status == 200, "\(length)")
                #expect(page.links.isEmpty == !inHeader, "\(length)")
                #expect((page.headers["Link"]?.utf8.count ?? 0) <= 2048)
                let next = try HTMLInspector.elements(page.body).first { $0.tag == "a" && $0.attributes["rel"] == "next" }
                #expect(next?.attributes["href"]?.contains("x=\(query)") == true, "\(length)")
                let json = try server.get("/people.json?offset=10&limit=5&x=\(query)")
                #expect(json.status == 200)
                #expect(json.links.isEmpty == !inHeader)
            }
        }

        @Test func kilobytesOfDigitsAreClampedNotACrash() throws {
            let server = try TestServer.showcase()
            // 3 KiB each, so that two fit in a request head (8 KiB at most; a larger one gets 431, see RequestHeadSizeTests).
            let digits = String(repeating: "9", count: 3 * 1024)
            let offset = try server.list("/people.json?offset=\(digits)")
            #expect(offset.rows.isEmpty)
            #expect(offset.meta.offset == 300)
            let limit = try server.list("/people.json?limit=\(digits)")
            #expect(limit.rows.count == 300)
            #expect(limit.meta.limit == 500)
            #expect(limit.meta.limitClamped)
            #expect((limit.meta.requestedLimit ?? 0) > 500)
            let page = try server.get("/people?offset=\(digits)&limit=\(digits)")
            #expect(page.status == 200)
            // The server goes on.
            #expect(try server.get("/people").status == 200)
        }

        @Test func aBogusFragmentIs400() throws {
            let server = try TestServer.showcase()
            let page = try server.get("/people?fragment=bogus")
            #expect(page.status == 400)
            #expect(page.text.contains("fragment must be"))
            let json = try server.getAcceptingJSON("/people?fragment=bogus")
            #expect(json.status == 400)
            #expect(try ErrorJSON(parsing: json.body).error.message.contains("fragment"))
        }

        @Test func anUnpagedListHonoursAnExplicitLimit() throws {
            let server = try TestServer.showcase()
            let json = try server.list("/big.json?limit=10&offset=20")
            #expect(json.rows.map(\.id) == (21...30).map(String.init))
            #expect(json.meta.maxLimit == nil)
            let page = try server.get("/big?limit=10")
            #expect(page.body.occurrences(of: "<li class=\"cell ") == 10)
            // Unpaged lists send no Link header.
            #expect(page.headers["Link"] == nil)
        }
    }
}
