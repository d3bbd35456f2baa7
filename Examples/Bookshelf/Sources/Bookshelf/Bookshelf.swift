// The bookshelf: a model, a class cell and a controller with two sections. The other cell is a
// prototype, Public/prototypes/ReadCell.html.
import Cellar
import TableKit

/// A book. A class, as an `ItemCell` shows objects; `Encodable`, so the list's JSON shows it;
/// `Identifiable`, so the shelves' store finds it by id.
final class Book: Encodable, Sendable, Identifiable {
    let id: Int, title: String, author: String, year: Int
    init(_ id: Int, _ title: String, _ author: String, _ year: Int) { (self.id, self.title, self.author, self.year) = (id, title, author, year) }
}

/// A book on the "Reading" shelf, in code. The table writes the `<li>` around it.
final class ReadingCell: ItemCell<Book> {
    override func render(_ book: Book, into html: inout HTMLWriter) {
        html.openSelectionLink(selection)  // <a class="cell-link" href="/books/1">
        html.element("span", class: "cell-title", text: book.title)  // escaped
        html.closeSelectionLink(selection)
        html.raw(" ")
        html.element("span", class: "cell-subtitle", text: book.author)
    }
}

/// The shelves, kept in memory in an `EditableItems` store (TableKit's): the list edits it and the
/// form at /books/new adds to it, each change under its lock. They start with four books.
func makeLibrary() -> EditableItems<Book> {
    EditableItems(sections: [
        .init(title: "Reading", items: [Book(1, "The Dispossessed", "Ursula K. Le Guin", 1974), Book(2, "Middlemarch", "George Eliot", 1871)]),
        .init(title: "Read", items: [Book(3, "Piranesi", "Susanna Clarke", 2020), Book(4, "Beloved", "Toni Morrison", 1987)]),
    ])
}

/// The list at /books: `UITableViewDataSource`, made per request. Its sections, rows, headers and
/// row identifiers (a book's id: its detail is /books/3) come from the store's snapshot.
struct BookshelfController: EditableItemsController {
    // The shelves as they are for this request; a controller over a database would fetch its page (see ListContext.page).
    let snapshot: EditableItems<Book>.Snapshot

    func titleForFooter(inSection section: Int) -> String? { "\(numberOfRows(inSection: section)) books" }

    // One provider per row: the class cell while reading, the prototype (filled from a dictionary) once read.
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let book = item(at: indexPath)
        if indexPath.section == 0 { return DataCellProvider(for: indexPath) { (cell: ReadingCell) in cell.item = book } }
        return DataCellProvider(prototype: "ReadCell", for: indexPath, data: ["title": book.title, "author": book.author, "year": String(book.year)])
    }
}

/// Editing mode (/books?editing=1): delete with Undo, moves within and across shelves, and saving a
/// book's form in place are `EditableItemsController`'s; the form, and how its values make a book, are ours.
extension BookshelfController {
    func editingForm(forRowAt indexPath: IndexPath) -> (any FormController)? {
        NewBookForm(book: item(at: indexPath), isRead: indexPath.section == 1)
    }
    func makeItem(id: Int, context: EditingContext) throws -> Book {
        let book = try context.decode(NewBook.self)
        return Book(id, book.title, book.author, book.year)
    }
}

/// One printing of a book: a row of the book's detail list, /books/:id.
struct Edition: Encodable, Sendable {
    let year: Int, publisher: String, format: String

    /// The editions known of the first books; a book added through the form has none yet.
    static let byBook: [Int: [Edition]] = [
        1: [Edition(year: 1974, publisher: "Harper & Row", format: "Hardcover"), Edition(year: 1999, publisher: "Gollancz", format: "Paperback")],
        2: [Edition(year: 1871, publisher: "William Blackwood and Sons", format: "Eight parts")],
        3: [Edition(year: 2020, publisher: "Bloomsbury", format: "Hardcover"), Edition(year: 2021, publisher: "Bloomsbury", format: "Paperback")],
        4: [Edition(year: 1987, publisher: "Alfred A. Knopf", format: "Hardcover")],
    ]
}

/// The detail list: selecting a book shows its editions, as selecting a row pushes a view controller.
struct EditionsController: TableController {
    let book: Book
    var editions: [Edition] { Edition.byBook[book.id] ?? [] }

    var title: String { book.title }
    func numberOfRows(inSection section: Int) -> Int { editions.count }
    func titleForHeader(inSection section: Int) -> String? { "Editions of \(book.title), by \(book.author)" }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let edition = editions[indexPath.row]
        return DataCellProvider(
            prototype: "EditionCell", for: indexPath, data: ["publisher": edition.publisher, "year": String(edition.year), "format": edition.format])
    }
    func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { editions[indexPath.row] }
}
