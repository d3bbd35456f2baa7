import Cellar
import Foundation
import MicroHTTP
import TableKit
import Testing

/// A controller is made with what the request asks of its list: the page (offset and limit, clamped
/// by the list's paging), the order, the search, the filters, or the one row of a detail.
extension CellarHTTPTests {
    @Suite struct ListContexts {
        /// A store that counts its fetches, and the rows each fetch returned.
        final class Store: Sendable {
            let rows = (0..<1_000).map { "row \($0)" }
            let fetched = Recorded<Range<Int>>()

            func fetch(_ range: Range<Int>) -> ArraySlice<String> {
                let clamped = range.clamped(to: rows.indices)
                fetched.append(clamped)
                return rows[clamped]
            }
        }

        /// Holds one page of a store's rows; Cellar asks it for those rows only.
        struct PageController: TableController {
            let page: ArraySlice<String>
            let total: Int
            var title: String { "Store" }
            func numberOfRows(inSection section: Int) -> Int { total }
            func identifier(forRowAt indexPath: IndexPath) -> String { String(indexPath.row) }
            func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
                // A row outside the fetched page would trap here: the test shows none is asked for.
                DataCellProvider(prototype: "Row", for: indexPath, data: ["name": page[indexPath.row]])
            }
            func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
                Int(identifier).flatMap { page.indices.contains($0) ? IndexPath(row: $0, section: 0) : nil }
            }
            func detail(forRowAt indexPath: IndexPath) -> RowDetail? { RowDetail(title: page[indexPath.row], fields: []) }
        }

        static func server(store: Store, contexts: Recorded<ListContext>) throws -> TestServer {
            try TestServer { app in
                try app.registry.registerPrototype("Row", template: "<span class=\"cell-title\">{{name}}</span>")
                app.list("/rows", paging: .pages(defaultLimit: 20, maxLimit: 100)) { context in
                    contexts.append(context)
                    if let identifier = context.rowIdentifier, let row = Int(identifier) {
                        return PageController(page: store.fetch(row..<row + 1), total: store.rows.count)
                    }
                    return PageController(page: store.fetch(context.page.rows), total: store.rows.count)
                }
            }
        }

        @Test func aControllerFetchesOnlyThePageAskedFor() throws {
            let store = Store()
            let contexts = Recorded<ListContext>()
            let server = try Self.server(store: store, contexts: contexts)
            let page = try server.list("/rows.json?offset=500&limit=30")
            #expect(page.sections[0].rows.map { $0.id } == (500..<530).map(String.init))
            #expect(store.fetched.all == [500..<530])
            // The limit is clamped before the controller sees it.
            _ = try server.get("/rows?offset=990&limit=5000")
            #expect(store.fetched.all.last == 990..<1_000)
            #expect(contexts.all.last?.page.limitClamped == true)
            // An offset past the end: nothing fetched, an empty page.
            let past = try server.list("/rows.json?offset=5000")
            #expect(past.sections.allSatisfy { $0.rows.isEmpty })
            // A bad parameter is a 400 before any controller is made.
            let made = contexts.all.count
            #expect(try server.get("/rows?limit=-1").status == 400)
            #expect(contexts.all.count == made)
        }

        @Test func aDetailIsFoundByItsIdentifierWithoutWalkingTheList() throws {
            let store = Store()
            let contexts = Recorded<ListContext>()
            let server = try Self.server(store: store, contexts: contexts)
            let detail = try server.get("/rows/742.json")
            #expect(detail.status == 200)
            #expect(try detail.json()["title"]?.string == "row 742")
            #expect(contexts.all.last?.rowIdentifier == "742")
            #expect(store.fetched.all == [742..<743])
            #expect(try server.get("/rows/5000").status == 404)
        }

        @Test func theQuerysOrderSearchAndFiltersAreRead() throws {
            let request = try Request(target: "/rows?sort=name&sort=-year&q=dune&genre=sf&_ts=1&utm_source=x&offset=10&limit=5")
            let context = ListContext(
                request: request, listPath: "/rows", page: try PageRequest(query: request.query, paging: .pages(defaultLimit: 20, maxLimit: 100)))
            #expect(context.sort == [SortKey("name"), SortKey("year", ascending: false)])
            #expect(context.searchTerm == "dune")
            #expect(context.filters.map(\.name) == ["genre"])
            #expect(context.page.rows == 10..<15)
            #expect(context.rowIdentifier == nil)
        }

        @Test func anUnpagedListAsksForEveryRowUnlessLimited() throws {
            #expect(try PageRequest(query: QueryItems(), paging: .unpaged).limit == nil)
            #expect(try PageRequest(query: QueryItems(parsing: "offset=5&limit=10"), paging: .unpaged).rows == 5..<15)
            #expect(PageRequest(firstOf: .paged).rows == 0..<50)
        }
    }
}

/// Values appended from the server's threads, read by the test.
final class Recorded<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []
    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
}
