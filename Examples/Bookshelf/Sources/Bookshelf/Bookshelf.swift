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
        html.closeSelectionLink(selection)
        html.raw(" ")
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

    /// The book whose id is `id` (as a detail's URL has it), if any.
    func book(id: String) -> Book? { all.flatMap(\.books).first { String($0.id) == id } }

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

/// The list at /books: `UITableViewDataSource`, made per request.
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

    // A row's identifier is its detail's address: /books/3, a list of the book's editions (main.swift).
    func identifier(forRowAt indexPath: IndexPath) -> String { String(book(at: indexPath).id) }
    func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { book(at: indexPath) }
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
