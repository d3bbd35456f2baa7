import TableKit
import Testing

/// `EditableItems` and `EditableItemsController`'s defaults: what an app over an array gets
/// without writing it. Over sockets, the showcase's `/to-drink` list is one (EditingTests).
@Suite struct EditableItemsTests {
    struct Book: Identifiable, Sendable, Encodable, Equatable {
        let id: Int
        var title: String
    }

    struct BookValues: Decodable {
        let title: String
    }

    struct BookForm: FormController {
        var book: Book?
        var sections: [FormSection] { [FormSection(fields: [.text("title", label: "Title", value: book?.title ?? "")])] }
    }

    struct Shelves: EditableItemsController {
        let snapshot: EditableItems<Book>.Snapshot
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider { DataCellProvider(for: indexPath) { (_: TitleCell) in } }
        func editingForm(forRowAt indexPath: IndexPath) -> (any FormController)? { BookForm(book: item(at: indexPath)) }
        func makeItem(id: Int, context: EditingContext) throws -> Book {
            let title = context.values["title"] ?? ""
            guard !title.isEmpty else { throw EditingError("A book needs a title.", field: "title") }
            return Book(id: id, title: title)
        }
    }

    static func store(capacity: Int? = nil) -> EditableItems<Book> {
        EditableItems(
            sections: [
                .init(title: "Reading", items: [Book(id: 1, title: "A"), Book(id: 2, title: "B")]),
                .init(title: "Read", items: [Book(id: 3, title: "C")]),
            ], capacity: capacity)
    }

    static func titles(_ store: EditableItems<Book>) -> [[String]] { store.snapshot.sections.map { $0.items.map(\.title) } }

    static func form(_ values: [String: String], restoring: String? = nil) -> EditingContext {
        EditingContext(actor: nil, values: values, restoring: restoring)
    }

    @Test func theDataSourceComesFromTheSnapshot() {
        let controller = Shelves(snapshot: Self.store().snapshot)
        #expect(controller.numberOfSections == 2)
        #expect(controller.numberOfRows(inSection: 0) == 2)
        #expect(controller.titleForHeader(inSection: 1) == "Read")
        #expect(controller.identifier(forRowAt: IndexPath(row: 0, section: 1)) == "3")
        #expect(controller.indexPath(forRowWithIdentifier: "2") == IndexPath(row: 1, section: 0))
        #expect(controller.indexPath(forRowWithIdentifier: "9") == nil)
        #expect(controller.indexPath(forRowWithIdentifier: "x") == nil)
        #expect(controller.item(forRowAt: IndexPath(row: 0, section: 0)) as? Book == Book(id: 1, title: "A"))
        #expect(controller.canMoveRow(at: IndexPath(row: 0, section: 0)))
    }

    @Test func deleteThenUndoPutsTheItemBackUnderItsIdWhereItWas() throws {
        let store = Self.store()
        try Shelves(snapshot: store.snapshot).commit(.delete, forRowAt: IndexPath(row: 0, section: 0), context: EditingContext(actor: nil))
        #expect(Self.titles(store) == [["B"], ["C"]])
        // A new book meanwhile takes a new id, never the deleted one.
        try Shelves(snapshot: store.snapshot).commit(.insert, forRowAt: IndexPath(row: 1, section: 0), context: Self.form(["title": "New"]))
        #expect(store.snapshot.sections[0].items.last == Book(id: 4, title: "New"))
        try Shelves(snapshot: store.snapshot).commit(
            .insert, forRowAt: IndexPath(row: 0, section: 0), context: Self.form(["title": "A"], restoring: "1"))
        #expect(store.snapshot.sections[0].items.map(\.id) == [1, 2, 4])
        // Restoring an id that is in use gives a new one: a row is never doubled.
        try Shelves(snapshot: store.snapshot).commit(
            .insert, forRowAt: IndexPath(row: 0, section: 1), context: Self.form(["title": "Again"], restoring: "1"))
        #expect(store.snapshot.sections[1].items.first == Book(id: 5, title: "Again"))
    }

    @Test func anEditKeepsTheIdAndPlaceAndAnItemDeletedMeanwhileIsAnError() throws {
        let store = Self.store()
        let stale = Shelves(snapshot: store.snapshot)
        try stale.commitEdit(forRowAt: IndexPath(row: 1, section: 0), context: Self.form(["title": "B2"]))
        #expect(Self.titles(store) == [["A", "B2"], ["C"]])
        #expect(throws: EditingError("A book needs a title.", field: "title")) {
            try stale.commitEdit(forRowAt: IndexPath(row: 1, section: 0), context: Self.form(["title": ""]))
        }
        store.remove(id: 2)
        #expect(throws: EditingError("Someone else deleted this row meanwhile: nothing was saved.")) {
            try stale.commitEdit(forRowAt: IndexPath(row: 1, section: 0), context: Self.form(["title": "B3"]))
        }
        #expect(Self.titles(store) == [["A"], ["C"]])
    }

    @Test func movesGoWithinAndAcrossSectionsAsUIKitCountsThem() throws {
        let store = Self.store()
        // Destination counted in the list without the row: row 1 of section 0 is after B.
        try Shelves(snapshot: store.snapshot).moveRow(
            at: IndexPath(row: 0, section: 0), to: IndexPath(row: 1, section: 0), context: .init(actor: nil))
        #expect(Self.titles(store) == [["B", "A"], ["C"]])
        try Shelves(snapshot: store.snapshot).moveRow(
            at: IndexPath(row: 0, section: 0), to: IndexPath(row: 1, section: 1), context: .init(actor: nil))
        #expect(Self.titles(store) == [["A"], ["C", "B"]])
        // Past the end is clamped; a row gone meanwhile is an error, nothing moved.
        let stale = Shelves(snapshot: store.snapshot)
        try stale.moveRow(at: IndexPath(row: 0, section: 1), to: IndexPath(row: 99, section: 0), context: .init(actor: nil))
        #expect(Self.titles(store) == [["A", "C"], ["B"]])
        store.remove(id: 3)
        #expect(throws: EditingError("Someone else deleted this row meanwhile: nothing was moved.")) {
            try stale.moveRow(at: IndexPath(row: 0, section: 1), to: IndexPath(row: 0, section: 0), context: .init(actor: nil))
        }
    }

    @Test func aFullStoreRefusesAnInsertWithAMessage() throws {
        let store = Self.store(capacity: 3)
        #expect(throws: EditingError("This list holds at most 3 rows: delete one first.")) {
            try store.append(toSection: 0) { Book(id: $0, title: "D") }
        }
        store.remove(id: 1)
        #expect(try store.append(toSection: 0) { Book(id: $0, title: "D") } == Book(id: 4, title: "D"))
        #expect(store.item(id: 4)?.title == "D")
        #expect(store.snapshot.revision == 2)
    }

    @Test func storesWithOtherIdsNameTheirNewOnes() throws {
        struct Tag: Identifiable, Sendable { let id: String }
        // The test's one thread makes every id: a plain counter is enough here.
        final class Counter: @unchecked Sendable { var next = 0 }
        let counter = Counter()
        let store = EditableItems<Tag>(sections: [.init(items: [Tag(id: "a")])]) {
            counter.next += 1
            return "tag-\(counter.next)"
        }
        try store.append(toSection: 0) { Tag(id: $0) }
        try store.insert(at: IndexPath(row: 0, section: 0), restoring: "a") { Tag(id: $0) }
        #expect(store.snapshot.sections[0].items.map(\.id) == ["tag-2", "a", "tag-1"])
    }
}
