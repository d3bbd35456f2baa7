import Cellar
import Foundation
import TableKit
import Testing

/// The samples of Cellar.docc/YourFirstApp.md, compiled and served, so the article cannot drift
/// from the API. Keep the two in step: the Swift below is the article's, verbatim, except that
/// its types sit in the `YourFirstApp` namespace (the extension then names `YourFirstApp.Book`),
/// the `@main` type's `main()` is never called (`App.run` ends the process),
/// and the template and the store are here as a string and an in-memory value.
enum YourFirstApp {
    // "A model and a cell".
    // Sources/Bookshelf/Book.swift
    final class Book: Encodable, Sendable {
        let id: Int
        let title: String
        let author: String
        let year: Int

        init(id: Int, title: String, author: String, year: Int) {
            self.id = id
            self.title = title
            self.author = author
            self.year = year
        }
    }

    final class ReadingCell: ItemCell<Book> {
        override func render(_ book: Book, into html: inout HTMLWriter) {
            html.openSelectionLink(selection)  // <a class="cell-link" href="/books/1">
            html.element("span", class: "cell-title", text: book.title)
            html.closeSelectionLink(selection)
            html.raw(" ")
            html.element("span", class: "cell-subtitle", text: book.author)
        }
    }

    // "A prototype cell": Public/prototypes/ReadCell.html.
    static let readCellTemplate = """
        {{! A book on the Read shelf. The table writes the li element around it, and the href. }}
        <a class="cell-link" href="{{href}}"><span class="cell-title">{{title}}</span></a>
        <span class="cell-subtitle">{{author}}, {{year}}</span>

        """

    // "The controller".
    // Sources/Bookshelf/BookshelfController.swift
    struct BookshelfController: TableController {
        static let shelves: [(title: String, books: [Book])] = [
            ("Reading", [Book(id: 1, title: "The Dispossessed", author: "Ursula K. Le Guin", year: 1974)]),
            ("Read", [Book(id: 3, title: "Piranesi", author: "Susanna Clarke", year: 2020)]),
        ]

        var numberOfSections: Int { Self.shelves.count }
        func numberOfRows(inSection section: Int) -> Int { Self.shelves[section].books.count }
        func titleForHeader(inSection section: Int) -> String? { Self.shelves[section].title }
        func titleForFooter(inSection section: Int) -> String? { "\(numberOfRows(inSection: section)) books" }

        func book(at indexPath: IndexPath) -> Book {
            Self.shelves[indexPath.section].books[indexPath.row]
        }

        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            let book = book(at: indexPath)
            if indexPath.section == 0 {
                return DataCellProvider(for: indexPath) { (cell: ReadingCell) in cell.item = book }
            }
            return DataCellProvider(prototype: "ReadCell", for: indexPath, data: book)
        }

        func identifier(forRowAt indexPath: IndexPath) -> String { String(book(at: indexPath).id) }

        func detail(forRowAt indexPath: IndexPath) -> RowDetail? {
            let book = book(at: indexPath)
            return RowDetail(title: book.title, fields: [.init("Author", book.author), .init("Published", String(book.year))])
        }

        func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { book(at: indexPath) }
    }

    // "Run it": Sources/Bookshelf/Bookshelf.swift, but for its `@main` (the test bundle has its own
    // entry point). Compiled, never called: `App.run` parses the process's command line, serves
    // until a signal and exits. Tests/examples/run.sh builds and serves the article's files as written.
    // Sources/Bookshelf/Bookshelf.swift
    struct Bookshelf {
        static func main() {
            App.run(siteName: "Bookshelf") { app in
                try app.register(ReadingCell.self)
                try app.registerPrototypes()  // every Public/prototypes/<Identifier>.html
                app.list("/books", title: "Books") { _ in BookshelfController() }
            }
        }
    }

    // "Lists over a store".
    // Sources/Bookshelf/Library.swift
    /// Where the books are kept: a database, say.
    protocol BookStore: Sendable {
        func count() throws -> Int
        func books(offset: Int, limit: Int) throws -> [Book]
        func book(id: Int) throws -> Book?
    }

    /// One page of the store's books: rows `offset..<offset + books.count` of `total`.
    struct StoredBooksController: TableController {
        let books: [Book]
        let offset: Int
        let total: Int

        func numberOfRows(inSection section: Int) -> Int { total }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            let book = books[indexPath.row - offset]
            return DataCellProvider(for: indexPath) { (cell: ReadingCell) in cell.item = book }
        }
        func identifier(forRowAt indexPath: IndexPath) -> String { String(books[indexPath.row - offset].id) }
        func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
            books.firstIndex { String($0.id) == identifier }.map { IndexPath(row: offset + $0, section: 0) }
        }
        func detail(forRowAt indexPath: IndexPath) -> RowDetail? {
            let book = books[indexPath.row - offset]
            return RowDetail(title: book.title, fields: [.init("Author", book.author)])
        }
    }

    static func mountLibrary(on app: App, store: any BookStore) {
        app.list("/library", title: "Library") { context in
            if let identifier = context.rowIdentifier {  // /library/3: that book alone
                let book = try Int(identifier).flatMap { try store.book(id: $0) }
                return StoredBooksController(books: book.map { [$0] } ?? [], offset: 0, total: book == nil ? 0 : 1)
            }
            let total = try store.count()
            let books = try store.books(offset: context.page.offset, limit: context.page.limit ?? total)
            return StoredBooksController(books: books, offset: context.page.offset, total: total)
        }
    }
}

// Sources/Bookshelf/Book+PrototypeData.swift
extension YourFirstApp.Book: PrototypeData {
    func prototypeValue(forKey key: String) -> PrototypeValue {
        switch key {
        case "title": .text(title)
        case "author": .text(author)
        case "year": .number(year)
        default: .missing
        }
    }
}

/// The article's store, in memory, remembering what it was asked for.
final class MemoryBookStore: YourFirstApp.BookStore, @unchecked Sendable {
    typealias Book = YourFirstApp.Book
    let all: [Book]
    private let lock = NSLock()
    private var asked: [String] = []

    init(count: Int) {
        all = (1...count).map { Book(id: $0, title: "Book \($0)", author: "Author \($0)", year: 1900 + $0) }
    }

    /// The calls made so far: `count`, `books(offset:limit:)`, `book(id:)`.
    var requests: [String] { lock.withLock { asked } }

    private func record(_ request: String) { lock.withLock { asked.append(request) } }

    func count() throws -> Int {
        record("count")
        return all.count
    }

    func books(offset: Int, limit: Int) throws -> [Book] {
        record("books(offset: \(offset), limit: \(limit))")
        return Array(all.dropFirst(offset).prefix(limit))
    }

    func book(id: Int) throws -> Book? {
        record("book(id: \(id))")
        return all.first { $0.id == id }
    }
}

@Suite struct DocumentationExamplesTests {
    /// The article's bookshelf, as its main.swift sets it up (the template given as a string),
    /// checked at start-up as `App.run` checks it.
    static func bookshelf() throws -> TestServer {
        try TestServer { app in
            try app.register(YourFirstApp.ReadingCell.self)
            try app.registry.registerPrototype("ReadCell", template: YourFirstApp.readCellTemplate)
            app.list("/books", title: "Books") { _ in YourFirstApp.BookshelfController() }
            try app.validate()
        }
    }

    @Test func theBookshelfPageHasBothSectionsAndBothCells() throws {
        let server = try Self.bookshelf()
        let page = try server.get("/books")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        let html = page.text
        #expect(html.contains(#"<h2 class="section-header" id="section-0-header">Reading</h2>"#))
        #expect(html.contains(#"<h2 class="section-header" id="section-1-header">Read</h2>"#))
        #expect(html.contains(#"<p class="section-footer" id="section-0-footer">1 books</p>"#))
        #expect(
            html.contains(
                #"<li class="cell reading" id="row-1"><a class="cell-link" href="/books/1"><span class="cell-title">The Dispossessed</span></a> "#
                    + #"<span class="cell-subtitle">Ursula K. Le Guin</span></li>"#))
        #expect(
            html.contains(
                #"<li class="cell read" id="row-3">"# + "\n"
                    + #"<a class="cell-link" href="/books/3"><span class="cell-title">Piranesi</span></a>"# + "\n"
                    + #"<span class="cell-subtitle">Susanna Clarke, 2020</span></li>"#), "the template's comment and last line break are not written")

        let fragment = try server.get("/books?fragment=rows")
        #expect(fragment.status == 200)
        #expect(fragment.text.contains(#"class="cell read""#) && !fragment.text.contains("<html"))
    }

    @Test func theBookshelfJSONAndDetailsAreWhatTheArticleSays() throws {
        let server = try Self.bookshelf()
        let list = try server.list("/books.json")
        #expect(list.sections.map(\.header) == ["Reading", "Read"])
        #expect(list.sections.map(\.footer) == ["1 books", "1 books"])
        let rows = list.rows
        #expect(rows.map(\.cell) == ["ReadingCell", "ReadCell"])
        #expect(rows.map(\.href) == ["/books/1", "/books/3"])
        #expect(rows[1].item?["title"]?.string == "Piranesi")
        #expect(rows[1].item?["year"]?.int == 2020)

        let detail = try server.get("/books/3")
        #expect(detail.status == 200)
        #expect(detail.text.contains("<h1>Piranesi</h1>") && detail.text.contains("<dt>Published</dt><dd>2020</dd>"))
        let json = try server.get("/books/1.json").json()
        #expect(json["cell"]?.string == "ReadingCell")
        #expect(json["item"]?["author"]?.string == "Ursula K. Le Guin")
        #expect(try server.get("/books/2").status == 404)
    }

    @Test func theStoreIsAskedForThePageAndForTheDetailsRowOnly() throws {
        let store = MemoryBookStore(count: 120)
        let server = try TestServer { app in
            try app.register(YourFirstApp.ReadingCell.self)
            YourFirstApp.mountLibrary(on: app, store: store)
            try app.validate()
        }
        let before = store.requests.count

        let list = try server.list("/library.json?offset=40&limit=5")
        #expect(list.meta.total == 120 && list.meta.offset == 40)
        #expect(list.rows.map(\.id) == ["41", "42", "43", "44", "45"])
        #expect(Array(store.requests.dropFirst(before)) == ["count", "books(offset: 40, limit: 5)"])

        let detail = try server.get("/library/77")
        #expect(detail.status == 200)
        #expect(detail.text.contains("<h1>Book 77</h1>"))
        #expect(store.requests.last == "book(id: 77)")
        #expect(try server.get("/library/777").status == 404)
        #expect(try server.get("/library/abc").status == 404)
    }

    /// Every line of the article's Swift samples is a line of this file, so an edit to one shows
    /// up in the other. Left out: the manifests (`Package.swift`, not compiled here) and `import`
    /// lines; the extension's type and the function's `static` are the namespace's.
    @Test func theArticlesSwiftIsTheSwiftCompiledHere() throws {
        let article = try String(contentsOfFile: Repository.root + "/Sources/Cellar/Cellar.docc/YourFirstApp.md", encoding: .utf8)
        let tested = try String(contentsOfFile: #filePath, encoding: .utf8)
        let testedLines = Set(tested.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var blocks: [[String]] = []
        var current: [String]?
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" || line == "```html" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!)
                current = nil
            } else {
                current?.append(String(line))
            }
        }
        // The template, as the one block of HTML.
        let templates = blocks.filter { $0.first?.hasPrefix("{{!") == true }
        #expect(templates.map { $0.joined(separator: "\n") + "\n" } == [YourFirstApp.readCellTemplate])
        let samples = blocks.filter { block in
            block.first?.hasPrefix("{{!") != true
                && !block.contains { $0.hasPrefix("// swift-tools-version") || $0.hasPrefix(".package(") }
        }
        #expect(samples.count == 5, "the article's Swift samples, not counting manifests")
        for line in samples.joined() {
            let line = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "extension Book:", with: "extension YourFirstApp.Book:")
            // `@main` marks the program's entry point, which a test bundle has of its own.
            guard !line.isEmpty, !line.hasPrefix("import "), line != "@main" else { continue }
            // A function of the article's is `static` here, in the namespace.
            let isHere = testedLines.contains(line) || testedLines.contains("static " + line)
            #expect(isHere, "YourFirstApp.md has a line this file does not: \(line)")
        }
    }
}
