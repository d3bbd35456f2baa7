import TableKit
import Testing

@Suite struct ItemCellTests {
    final class Book {
        let title: String
        init(title: String) { self.title = title }
    }

    final class BookCell: ItemCell<Book> {
        private(set) var timesPrepared = 0

        override func prepareForReuse() {
            super.prepareForReuse()
            timesPrepared += 1
        }

        override func render(_ book: Book, into html: inout HTMLWriter) {
            html.element("span", class: "cell-title", text: book.title)
        }
    }

    private let origin = IndexPath(row: 0, section: 0)

    private func rendered(_ cell: TableViewCell) throws -> String {
        var html = HTMLWriter()
        try cell.render(into: &html)
        return html.string
    }

    @Test func theProviderSetsTheItemAndRenderingLendsIt() throws {
        let registry = ReuseRegistry()
        try registry.register(BookCell.self)
        let book = Book(title: "Structure <and> Interpretation")
        let provider = DataCellProvider(for: origin, cell: BookCell.self, data: book)
        #expect(provider.reuseIdentifier == "BookCell")
        let cell = try provider.dequeueConfiguredCell(from: TableView(registry: registry))
        #expect((cell as? BookCell)?.item === book)
        #expect(try rendered(cell) == #"<span class="cell-title">Structure &lt;and&gt; Interpretation</span>"#)
    }

    @Test func aCellWithoutAnItemWritesNothing() throws {
        #expect(try rendered(BookCell()) == "")
    }

    @Test func reuseLetsGoOfThePreviousItemThroughSuper() throws {
        let registry = ReuseRegistry()
        try registry.register(BookCell.self)
        let tableView = TableView(registry: registry)
        weak var released: Book?
        do {
            let book = Book(title: "Gone")
            released = book
            let cell = try DataCellProvider(for: origin, cell: BookCell.self, data: book).dequeueConfiguredCell(from: tableView)
            tableView.recycle(cell)
        }
        let again = try tableView.dequeueReusableCell(BookCell.self, for: origin)
        #expect(again.item == nil)
        #expect(again.timesPrepared == 1)
        #expect(released == nil, "the pool must not keep a row's item alive")
        #expect(try rendered(again) == "")
    }

    @Test func theItemCanBeReplacedAndRendersTheNewOne() throws {
        let cell = BookCell()
        cell.configure(with: Book(title: "First"))
        cell.item = Book(title: "Second")
        #expect(try rendered(cell) == #"<span class="cell-title">Second</span>"#)
        cell.item = nil
        #expect(try rendered(cell) == "")
    }
}
