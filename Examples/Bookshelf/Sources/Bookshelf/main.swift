// The whole program: the command line, logs, /healthz, signals and exit codes come with App.run.
import Cellar

App.run(siteName: "Bookshelf") { app in
    try app.register(ReadingCell.self)  // the class cell
    try app.registerPrototypes()  // Public/prototypes/ReadCell.html and EditionCell.html
    let library = Library()
    // Selecting a book shows its editions: a list of its own at /books/:id (nil: no such book, 404).
    app.list("/books", title: "Books", detail: { id, _ in library.book(id: id).map { EditionsController(book: $0) } }) { _ in
        BookshelfController(library: library, shelves: library.all)
    }
    // Anyone may edit the shelves (?editing=1); name accounts or groups instead to ask for sign-in.
    for action in [Action.insert, .update, .delete] { app.access.permissions.grant(action, on: "/books", to: Permissions.anyone) }
    // A mistake comes back 422 with each message on its field; a book kept sends the browser to the list (303).
    app.form("/books/new", title: "Add a book", { _ in NewBookForm() }) { (book: NewBook, _) in
        library.add(title: book.title, author: book.author, year: book.year, isRead: book.isRead)
        app.listDidChange(at: "/books")  // its watchers see the new row
        return .created(at: "/books")
    }
}
