import Cellar
import HTTPTestSupport
import TableKit
import Testing

/// A list has one title: the nav, the page's `<title>` and `<h1>`, the JSON and a detail's back link agree.
extension CellarHTTPTests {
    @Suite struct ListTitles {
        final class Book: Sendable {
            let id: Int
            let name: String
            init(id: Int, name: String) {
                self.id = id
                self.name = name
            }
        }

        final class BookCell: ItemCell<Book> {
            override func render(_ book: Book, into html: inout HTMLWriter) {
                html.element("span", class: "cell-title", text: book.name)
            }
        }

        struct Shelf: TableController {
            static let books = [Book(id: 1, name: "Dune"), Book(id: 2, name: "Emma")]
            var title: String
            func numberOfRows(inSection section: Int) -> Int { Self.books.count }
            func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
                DataCellProvider(for: indexPath) { (cell: BookCell) in cell.item = Self.books[indexPath.row] }
            }
            func detail(forRowAt indexPath: IndexPath) -> RowDetail? { RowDetail(title: Self.books[indexPath.row].name, fields: []) }
        }

        static func titles(of page: TestHTTPResponse, path: String) throws -> (nav: String?, title: String?, heading: String?) {
            let elements = try HTMLInspector.elements(page.body)
            let nav = elements.first { $0.tag == "a" && $0.attributes["href"] == path && $0.attributes["aria-current"] != nil }?.text
            return (nav, elements.first { $0.tag == "title" }?.text, elements.first { $0.tag == "h1" }?.text)
        }

        @Test func theMountedTitleIsShownEverywhereAndADifferentControllerTitleIsReported() throws {
            let server = try TestServer(validating: true) { app in
                app.siteName = "Library"
                try app.register(BookCell.self)
                app.list("/books", title: "Books") { _ in Shelf(title: "Bookshelf") }
            }
            let (nav, title, heading) = try Self.titles(of: try server.get("/books"), path: "/books")
            #expect(nav == "Books")
            #expect(title == "Books · Library")
            #expect(heading == "Books")
            #expect(try server.list("/books.json").title == "Books")
            let detail = try HTMLInspector.elements(try server.get("/books/1").body)
            #expect(detail.contains { $0.tag == "a" && $0.attributes["href"] == "/books" && $0.text == "Back to Books" })
            let warning = server.logs.all.first { $0.level == .warning && $0.metadata["list"] == "/books" }
            #expect(warning?.metadata["controller_title"] == "Bookshelf")
        }

        @Test func aListMountedWithoutATitleTakesItsControllers() throws {
            let server = try TestServer(validating: true) { app in
                try app.register(BookCell.self)
                app.list("/books") { _ in Shelf(title: "Bookshelf") }
            }
            let (nav, title, heading) = try Self.titles(of: try server.get("/books"), path: "/books")
            #expect(nav == "Bookshelf")
            #expect(title == "Bookshelf · Cellar")
            #expect(heading == "Bookshelf")
            #expect(!server.logs.all.contains { $0.level == .warning })
        }

        @Test func aListNamedLikeItsSiteIsNotNamedTwiceInTheDocumentTitle() throws {
            let server = try TestServer(validating: true) { app in
                app.siteName = "Bookshelf"
                try app.register(BookCell.self)
                app.list("/books", title: "Bookshelf") { _ in Shelf(title: "") }
            }
            #expect(try Self.titles(of: try server.get("/books"), path: "/books").title == "Bookshelf")
        }
    }
}
