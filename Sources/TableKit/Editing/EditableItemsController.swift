/// An editable list over an ``EditableItems`` store: the data source and UIKit's editing calls
/// come with it, so an app writes its cells, its form and how a form's values make an item.
///
/// Defaults: the sections and rows of the request's ``snapshot`` (headers from the sections'
/// titles), a row's identifier from its item's id, the item as the row's JSON when it is
/// `Encodable`, and ``EditableTableController/commit(_:forRowAt:context:)`` (delete, insert and
/// Undo's insert under the deleted row's id), ``EditableTableController/commitEdit(forRowAt:context:)``
/// (the item made again from the form, in its place) and ``EditableTableController/moveRow(at:to:context:)``
/// (within and across sections), each by the item's id. Rows can be moved; override
/// ``EditableTableController/canMoveRow(at:)`` to hold some in place. Any default can be replaced.
///
/// ```swift
/// struct BookshelfController: EditableItemsController {
///     let snapshot: EditableItems<Book>.Snapshot
///     func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider { … }
///     func editingForm(forRowAt indexPath: IndexPath) -> (any FormController)? { BookForm(book: snapshot[indexPath]) }
///     func makeItem(id: Int, context: EditingContext) throws -> Book {
///         let values = try context.decode(BookValues.self)
///         return Book(id, values.title, values.author)
///     }
/// }
/// ```
public protocol EditableItemsController: EditableTableController {
    associatedtype Item: Identifiable & Sendable where Item.ID: LosslessStringConvertible & Sendable
    /// The store's sections as this request shows them (``EditableItems/snapshot``): index paths
    /// count in it, and changes go to its store.
    var snapshot: EditableItems<Item>.Snapshot { get }
    /// The item a form's values make (`context`: an insert row's form, a row's editing form, or
    /// the values Undo kept), with `id`: a new one, the edited row's, or the deleted row's. A
    /// thrown ``EditingError`` is shown in the row; a value that does not decode, on its field.
    func makeItem(id: Item.ID, context: EditingContext) throws -> Item
}

extension EditableItemsController {
    /// The item at `indexPath` in this request's snapshot.
    public func item(at indexPath: IndexPath) -> Item { snapshot[indexPath] }

    public var numberOfSections: Int { snapshot.sections.count }
    public func numberOfRows(inSection section: Int) -> Int { snapshot.sections[section].items.count }
    public func titleForHeader(inSection section: Int) -> String? { snapshot.sections[section].title }
    public func identifier(forRowAt indexPath: IndexPath) -> String { String(describing: snapshot[indexPath].id) }
    public func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
        Item.ID(identifier).flatMap { snapshot.indexPath(of: $0) }
    }
    public func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { snapshot[indexPath] as? any Encodable }

    public func commit(_ editingStyle: EditingStyle, forRowAt indexPath: IndexPath, context: EditingContext) throws {
        switch editingStyle {
        case .delete: snapshot.store.remove(id: snapshot[indexPath].id)
        case .insert: try snapshot.store.insert(at: indexPath, restoring: context.restoring) { try makeItem(id: $0, context: context) }
        case .none: break
        }
    }

    /// Makes the item again from the form, under its id, where it is now (a row moved meanwhile
    /// stays where it was moved); an item deleted meanwhile is an error in the row.
    public func commitEdit(forRowAt indexPath: IndexPath, context: EditingContext) throws {
        let id = snapshot[indexPath].id
        let edited = try makeItem(id: id, context: context)
        guard snapshot.store.update(id: id, { $0 = edited }) else {
            throw EditingError("Someone else deleted this row meanwhile: nothing was saved.")
        }
    }

    public func canMoveRow(at indexPath: IndexPath) -> Bool { true }

    public func moveRow(at source: IndexPath, to destination: IndexPath, context: EditingContext) throws {
        guard snapshot.store.move(id: snapshot[source].id, to: destination) else {
            throw EditingError("Someone else deleted this row meanwhile: nothing was moved.")
        }
    }
}
