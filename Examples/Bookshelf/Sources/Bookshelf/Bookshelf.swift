// The bookshelf: a model, a class cell and a controller with two sections. The other cell is a
// prototype, Public/prototypes/ReadCell.html.
import Cellar
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

/// The shelves, kept in memory: the form at /books/new adds to them. `Locked` (from Cellar) guards
/// them, as requests come in on many threads.
final class Library: Sendable {
    typealias Shelf = (title: String, books: [Book])
    private let shelves = Locked<[Shelf]>([
        (title: "Reading", books: [Book(1, "The Dispossessed", "Ursula K. Le Guin", 1974), Book(2, "Middlemarch", "George Eliot", 1871)]),
        (title: "Read", books: [Book(3, "Piranesi", "Susanna Clarke", 2020), Book(4, "Beloved", "Toni Morrison", 1987)]),
    ])

    var all: [Shelf] { shelves.withLock { $0 } }

    /// Puts a new book on the "Read" shelf, or on "Reading" while it is not read.
    func add(title: String, author: String, year: Int, isRead: Bool) {
        put(NewBook(title: title, author: author, year: year, isRead: isRead), at: nil)
    }

    // Editing: each change finds the book by its id, so a change made meanwhile is not undone.
    /// Puts `new` at `place` (a shelf and a row), or at the end of its shelf; under `id` when free (an Undo).
    func put(_ new: NewBook, at place: IndexPath?, id: Int? = nil) {
        shelves.withLock { shelves in
            let ids = shelves.flatMap(\.books).map(\.id)
            let book = Book(id.flatMap { ids.contains($0) ? nil : $0 } ?? (ids.max() ?? 0) + 1, new.title, new.author, new.year)
            let shelf = min(place?.section ?? (new.isRead ? 1 : 0), shelves.count - 1)
            shelves[shelf].books.insert(book, at: min(place?.row ?? .max, shelves[shelf].books.count))
        }
    }
    /// Takes the book out, and says where it was.
    @discardableResult func remove(_ id: Int) -> IndexPath? {
        shelves.withLock { shelves in
            for (section, shelf) in shelves.enumerated() {
                if let row = shelf.books.firstIndex(where: { $0.id == id }) {
                    shelves[section].books.remove(at: row); return IndexPath(row: row, section: section)
                }
            }
            return nil
        }
    }
}

/// The list at /books: `UITableViewDataSource` and `didSelectRowAt` in one value, made per request.
struct BookshelfController: TableController {
    let library: Library
    // The shelves as they are for this request; a controller over a database would fetch its page (see ListContext.page).
    let shelves: [Library.Shelf]

    var numberOfSections: Int { shelves.count }
    func numberOfRows(inSection section: Int) -> Int { shelves[section].books.count }
    func titleForHeader(inSection section: Int) -> String? { shelves[section].title }
    func titleForFooter(inSection section: Int) -> String? { "\(numberOfRows(inSection: section)) books" }
    func book(at indexPath: IndexPath) -> Book { shelves[indexPath.section].books[indexPath.row] }

    // One provider per row: the class cell while reading, the prototype (filled from a dictionary) once read.
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let book = book(at: indexPath)
        if indexPath.section == 0 { return DataCellProvider(for: indexPath) { (cell: ReadingCell) in cell.item = book } }
        return DataCellProvider(prototype: "ReadCell", for: indexPath, data: ["title": book.title, "author": book.author, "year": String(book.year)])
    }

    func identifier(forRowAt indexPath: IndexPath) -> String { String(book(at: indexPath).id) }
    func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
        for (section, shelf) in shelves.enumerated() {
            if let row = shelf.books.firstIndex(where: { String($0.id) == identifier }) { return IndexPath(row: row, section: section) }
        }
        return nil
    }
    func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { book(at: indexPath) }
    func detail(forRowAt indexPath: IndexPath) -> RowDetail? {
        let book = book(at: indexPath)
        return RowDetail(title: book.title, fields: [.init("Author", book.author), .init("Published", String(book.year))])
    }
}

/// Editing mode (/books?editing=1), UIKit's calls: delete (with Undo), move, and a book's form in place.
extension BookshelfController: EditableTableController {
    func commit(_ style: EditingStyle, forRowAt indexPath: IndexPath, context: EditingContext) throws {
        if style == .delete { library.remove(book(at: indexPath).id) }
        if style == .insert { library.put(try context.decode(NewBook.self), at: indexPath, id: context.restoring.flatMap { Int($0) }) }
    }
    func editingForm(forRowAt indexPath: IndexPath) -> (any FormController)? {
        NewBookForm(book: book(at: indexPath), isRead: indexPath.section == 1)
    }
    func commitEdit(forRowAt indexPath: IndexPath, context: EditingContext) throws {
        let edited = try context.decode(NewBook.self), id = book(at: indexPath).id
        library.put(edited, at: library.remove(id), id: id)
    }
    func canMoveRow(at indexPath: IndexPath) -> Bool { true }
    func moveRow(at source: IndexPath, to destination: IndexPath, context: EditingContext) throws {
        let book = book(at: source)
        library.remove(book.id)
        library.put(NewBook(title: book.title, author: book.author, year: book.year, isRead: destination.section == 1), at: destination, id: book.id)
    }
}
