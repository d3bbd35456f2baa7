import ByteWriters

/// An app's own list kept in memory: `Identifiable` items in sections, guarded by a lock, every
/// change made by the item's id. What an ``EditableItemsController`` edits, so that a list over
/// an array gets delete with Undo, insert, edit in place and moves without writing them.
///
/// ```swift
/// let library = EditableItems<Book>(sections: [
///     .init(title: "Reading", items: [Book(1, "The Dispossessed")]),
///     .init(title: "Read", items: [Book(2, "Piranesi")]),
/// ])
/// app.list("/books", title: "Books") { _ in BookshelfController(snapshot: library.snapshot) }
/// ```
///
/// A controller is made per request from a ``Snapshot``; each change finds its item by id in the
/// store as it is now, so a change made meanwhile by someone else is neither undone nor lost. A
/// class (shared by every request), `Sendable`, as requests come in on many threads.
public final class EditableItems<Item: Identifiable & Sendable>: Sendable where Item.ID: LosslessStringConvertible & Sendable {
    /// A section: its header's title and its items, in order.
    public struct Section: Sendable {
        public var title: String?
        public var items: [Item]

        public init(title: String? = nil, items: [Item]) {
            self.title = title
            self.items = items
        }
    }

    /// The sections as one request sees them, with the store they came from (where its changes go).
    public struct Snapshot: Sendable {
        public let store: EditableItems
        public let sections: [Section]
        /// Moves on with every change: a list can name its ``TableController/contentVersion`` by it.
        public let revision: Int

        public subscript(indexPath: IndexPath) -> Item { sections[indexPath.section].items[indexPath.row] }

        /// Where the item with `id` is in this snapshot, if it is.
        public func indexPath(of id: Item.ID) -> IndexPath? { EditableItems.find(id, in: sections) }
    }

    /// The most items the store holds, or nil for no limit: a list anyone may add to needs one.
    public let capacity: Int?
    private let newID: @Sendable () -> Item.ID
    private let state: Locked<(sections: [Section], revision: Int)>

    /// - Parameter newID: the id of a new item (one that no item has had, so that an Undo puts
    ///   back the row it deleted rather than taking another's place).
    public init(sections: [Section], capacity: Int? = nil, newID: @escaping @Sendable () -> Item.ID) {
        self.capacity = capacity
        self.newID = newID
        state = Locked((sections, 0))
    }

    /// A store whose new items are numbered on from the largest id it starts with.
    public convenience init(sections: [Section], capacity: Int? = nil) where Item.ID == Int {
        let next = Locked((sections.flatMap(\.items).map(\.id).max() ?? 0) + 1)
        self.init(sections: sections, capacity: capacity) {
            next.withLock { next in
                defer { next += 1 }
                return next
            }
        }
    }

    /// The sections and revision as they are now.
    public var snapshot: Snapshot { state.withLock { Snapshot(store: self, sections: $0.sections, revision: $0.revision) } }

    /// The item with `id`, if the store holds it (a detail's lookup).
    public func item(id: Item.ID) -> Item? {
        state.withLock { state in state.sections.lazy.flatMap(\.items).first { $0.id == id } }
    }

    /// Adds an item at `indexPath` (clamped to the section's rows), made by `make` with its id:
    /// the id `restoring` names when no item holds it (an Undo puts a row back as it was), else a
    /// new one. Throws ``EditingError`` when the store is full, and what `make` throws.
    @discardableResult
    public func insert(at indexPath: IndexPath, restoring: String? = nil, _ make: (Item.ID) throws -> Item) throws -> Item {
        try state.withLock { state in
            guard !state.sections.isEmpty else { throw EditingError("This list has no section to add to.") }
            if let capacity, state.sections.reduce(0, { $0 + $1.items.count }) >= capacity {
                throw EditingError("This list holds at most \(capacity) rows: delete one first.")
            }
            let restored = restoring.flatMap { Item.ID($0) }.flatMap { id in Self.find(id, in: state.sections) == nil ? id : nil }
            let item = try make(restored ?? newID())
            let section = min(max(indexPath.section, 0), state.sections.count - 1)
            state.sections[section].items.insert(item, at: min(max(indexPath.row, 0), state.sections[section].items.count))
            state.revision += 1
            return item
        }
    }

    /// Adds an item made by `make` at the end of `section`.
    @discardableResult
    public func append(toSection section: Int, _ make: (Item.ID) throws -> Item) throws -> Item {
        try insert(at: IndexPath(row: .max, section: section), make)
    }

    /// Takes the item with `id` out; returns where it was, or nil when no item has it.
    @discardableResult
    public func remove(id: Item.ID) -> IndexPath? {
        state.withLock { state in
            guard let place = Self.find(id, in: state.sections) else { return nil }
            state.sections[place.section].items.remove(at: place.row)
            state.revision += 1
            return place
        }
    }

    /// Changes the item with `id` where it is; false when no item has it.
    @discardableResult
    public func update(id: Item.ID, _ change: (inout Item) throws -> Void) rethrows -> Bool {
        try state.withLock { state in
            guard let place = Self.find(id, in: state.sections) else { return false }
            try change(&state.sections[place.section].items[place.row])
            state.revision += 1
            return true
        }
    }

    /// Moves the item with `id` to `destination`, counted as UIKit counts a move's destination: in
    /// the list without the item (clamped). Another section is where the item now belongs, as a row
    /// dropped in another section of a `UITableView` changes its section. False when no item has it.
    @discardableResult
    public func move(id: Item.ID, to destination: IndexPath) -> Bool {
        state.withLock { state in
            guard let place = Self.find(id, in: state.sections) else { return false }
            let item = state.sections[place.section].items.remove(at: place.row)
            let section = min(max(destination.section, 0), state.sections.count - 1)
            state.sections[section].items.insert(item, at: min(max(destination.row, 0), state.sections[section].items.count))
            state.revision += 1
            return true
        }
    }

    fileprivate static func find(_ id: Item.ID, in sections: [Section]) -> IndexPath? {
        for (section, content) in sections.enumerated() {
            if let row = content.items.firstIndex(where: { $0.id == id }) { return IndexPath(row: row, section: section) }
        }
        return nil
    }
}
