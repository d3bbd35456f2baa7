// An app that starts threads of its own before calling `App.run`, as an app with a background
// refresher or a metrics exporter does. The stop signals must still drain the server, whichever
// of these threads the kernel gives them to. Spawned by CellarTests' EntryPointTests.
import Cellar
import TableKit

#if canImport(Glibc)
    import Glibc
#endif

startSleepingThreads()

/// Thrown by the app's set-up when `TEST_APP_FAIL` is set: a configuration error.
struct SetUpFailure: Error, CustomStringConvertible {
    var description: String { "the test app was asked to fail its set-up" }
}

final class WordCell: ItemCell<Word> {
    override func render(_ word: Word, into html: inout HTMLWriter) {
        html.element("span", class: "cell-title", text: word.text)
    }
}

final class Word: Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

struct WordsController: TableController {
    static let words = ["cellar", "table", "cell", "row", "section"].map(Word.init)
    var title: String { "Words" }
    func numberOfRows(inSection section: Int) -> Int { Self.words.count }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(for: indexPath) { (cell: WordCell) in cell.item = Self.words[indexPath.row] }
    }
}

App.run(siteName: "Test app") { app in
    if getenv("TEST_APP_FAIL") != nil { throw SetUpFailure() }
    try app.register(WordCell.self)
    app.list("/words", title: "Words") { _ in WordsController() }
}
