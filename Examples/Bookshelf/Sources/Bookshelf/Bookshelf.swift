// The bookshelf: a model, a class cell and a controller with two sections. The other cell is a
// prototype, Public/prototypes/ReadCell.html.
import TableKit

/// A book. A class, as an `ItemCell` shows objects; `Encodable`, so the list's JSON shows it.
final class Book: Encodable, Sendable {
    let id: Int, title: String, author: String, year: Int
    init(_ id: Int, _ title: String, _ author: String, _ year: Int) { (self.id, self.title, self.author, self.year) = (id, title, author, year) }
}

/// A book on the "Reading" shelf, in code. The table writes the `<li>` around it.
final class ReadingCell: ItemCell<Book> {
    override func render(_ book: Book, into html: inout HTMLWriter) {
        html.openSelectionLink(selection)  // <a class="cell-link" href="/books/1">
        html.element("span", class: "cell-title", text: book.title)  // escaped
        html.raw("</a> ")
        html.element("span", class: "cell-subtitle", text: book.author)
    }
}

/// The list at /books: `UITableViewDataSource` and `didSelectRowAt` in one value, made per request.
struct BookshelfController: TableController {
    // Fixed at start-up here; a controller over a store would fetch its page (see ListContext.page).
    static let shelves = [
        (title: "Reading", books: [Book(1, "The Dispossessed", "Ursula K. Le Guin", 1974), Book(2, "Middlemarch", "George Eliot", 1871)]),
        (title: "Read", books: [Book(3, "Piranesi", "Susanna Clarke", 2020), Book(4, "Beloved", "Toni Morrison", 1987)]),
    ]
    // Each book's row by id, so a detail (/books/3) finds its row without walking the list.
    static let rows = Dictionary(
        uniqueKeysWithValues: shelves.enumerated().flatMap { section, shelf in
            shelf.books.enumerated().map { row, book in (String(book.id), IndexPath(row: row, section: section)) }
        })

    var numberOfSections: Int { Self.shelves.count }
    func numberOfRows(inSection section: Int) -> Int { Self.shelves[section].books.count }
    func titleForHeader(inSection section: Int) -> String? { Self.shelves[section].title }
    func titleForFooter(inSection section: Int) -> String? { "\(numberOfRows(inSection: section)) books" }
    func book(at indexPath: IndexPath) -> Book { Self.shelves[indexPath.section].books[indexPath.row] }

    // One provider per row: the class cell while reading, the prototype (filled from a dictionary) once read.
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let book = book(at: indexPath)
        if indexPath.section == 0 { return DataCellProvider(for: indexPath) { (cell: ReadingCell) in cell.item = book } }
        return DataCellProvider(prototype: "ReadCell", for: indexPath, data: ["title": book.title, "author": book.author, "year": String(book.year)])
    }

    func identifier(forRowAt indexPath: IndexPath) -> String { String(book(at: indexPath).id) }
    func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? { Self.rows[identifier] }
    func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { book(at: indexPath) }
    func detail(forRowAt indexPath: IndexPath) -> RowDetail? {
        let book = book(at: indexPath)
        return RowDetail(title: book.title, fields: [.init("Author", book.author), .init("Published", String(book.year))])
    }
}
