// The whole program: the command line, logs, /healthz, signals and exit codes come with App.run.
import Cellar

App.run(siteName: "Bookshelf") { app in
    try app.register(ReadingCell.self)  // the class cell
    try app.registerPrototypes()  // Public/prototypes/ReadCell.html
    app.list("/books", title: "Books") { _ in BookshelfController() }
}
