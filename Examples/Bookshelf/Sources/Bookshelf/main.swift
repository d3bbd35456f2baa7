// The whole program: the command line, logs, /healthz, signals and exit codes come with App.run.
import Cellar

App.run(siteName: "Bookshelf") { app in
    try app.register(ReadingCell.self)  // the class cell
    try app.registerPrototypes()  // Public/prototypes/ReadCell.html and EditionCell.html
    let library = makeLibrary()
    // Selecting a book shows its editions: a list of its own at /books/:id (nil: no such book, 404).
    app.list("/books", title: "Books", detail: { id, _ in Int(id).flatMap { library.item(id: $0) }.map { EditionsController(book: $0) } }) { _ in
        BookshelfController(snapshot: library.snapshot)
    }
    // Anyone may edit the shelves (?editing=1); name accounts or groups instead to ask for sign-in.
    for action in [Action.insert, .update, .delete] { app.access.permissions.grant(action, on: "/books", to: Permissions.anyone) }
    // A mistake comes back 422 with each message on its field; a book kept sends the browser to the list (303).
    app.form("/books/new", title: "Add a book", { _ in NewBookForm() }) { (book: NewBook, _) in
        try library.append(toSection: book.isRead ? 1 : 0) { id in Book(id, book.title, book.author, book.year) }
        app.listDidChange(at: "/books")  // its watchers see the new row
        return .created(at: "/books")
    }
}
