/// One render's view of the cells: dequeues registered cells from a recycled pool.
///
/// Make one per render (page, fragment, stream) from the shared ``ReuseRegistry``. It checks a
/// ``ReusePool`` out of the registry and returns it when it is released, which happens even when
/// a streamed response is abandoned half-way by a client that went away.
///
/// ```swift
/// let tableView = TableView(registry: registry)
/// let cell = try tableView.dequeueReusableCell(EngineerCell.self, for: indexPath)
/// ```
///
/// A table view belongs to one thread at a time; it is not `Sendable`.
public final class TableView {
    public let registry: ReuseRegistry
    let pool: ReusePool
    /// The path rows link to for their detail (`/people` → `/people/42`); nil: rows do not link.
    /// A ``TableRenderer`` reads it once, when it is made: a change applies to the next render.
    public var selectionBase: String?
    /// Who is told of a row whose cell cannot be made, and writes it as an error cell instead (see
    /// ``RowErrorHandling``); nil: such a row's error stops the render.
    public var rowErrorHandler: (any RowErrorHandling)?

    public init(registry: ReuseRegistry, selectionBase: String? = nil) {
        self.registry = registry
        self.selectionBase = selectionBase
        pool = registry.checkoutPool()
    }

    deinit {
        registry.checkin(pool)
    }

    /// Dequeues a recycled cell of exactly `Cell`, or makes one, for a class registered under its own name.
    ///
    /// Throws ``TableKitError/unregisteredIdentifier(_:registered:)`` when nothing is registered
    /// under the identifier, and ``TableKitError/typeMismatch(identifier:registered:requested:)``
    /// when something else is.
    public func dequeueReusableCell<Cell: TableViewCell>(
        _ cellClass: Cell.Type = Cell.self, withIdentifier identifier: String? = nil, for indexPath: IndexPath
    ) throws -> Cell {
        let identifier = identifier ?? cellClass.reuseIdentifier
        let row = try dequeue(identifier, registering: nil, for: indexPath)
        guard let typed = row.cell as? Cell else {
            let registered = String(reflecting: type(of: row.cell))
            recycle(row)
            throw TableKitError.typeMismatch(identifier: identifier, registered: registered, requested: String(reflecting: cellClass))
        }
        return typed
    }

    /// Dequeues a recycled cell, or makes one, for whatever is registered under `identifier`:
    /// a class cell, or a ``PrototypeCell`` for a prototype.
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) throws -> TableViewCell {
        try dequeue(identifier, registering: nil, for: indexPath).cell
    }

    /// Gives a cell back to the pool once its row is written, as UIKit does when a row scrolls away.
    /// A cell this table view's pool did not make (made by hand, or dequeued from another table
    /// view) is not taken.
    public func recycle(_ cell: TableViewCell) {
        guard let identifier = cell.poolIdentifier, let entry = pool.entries[identifier], entry.serial == cell.poolEntrySerial else { return }
        recycle(DequeuedCell(cell: cell, entry: entry))
    }

    /// Gives a row's cell back to the pool slot it came from: moved, not copied, into the free list.
    func recycle(_ row: consuming DequeuedCell) {
        row.cell.storedSelection = nil
        let entry = row.entry
        entry.pushIdleCell(row.cell)
    }

    /// Dequeues a class cell by its own identifier, found by type so the name is not spelled per row.
    func dequeue(_ cellClass: TableViewCell.Type, registering: Bool, for indexPath: IndexPath) throws -> DequeuedCell {
        if let last = pool.lastClassEntry, last.cellClass == cellClass {
            return take(from: last, for: indexPath)
        }
        let entry: ReusePool.Entry
        if let found = pool.classEntries[ObjectIdentifier(cellClass)] {
            entry = found
            pool.lastClassEntry = found
        } else {
            entry = try poolEntry(for: cellClass.reuseIdentifier, registering: registering ? cellClass : nil)
            // Only an entry made from this very class may be found by it (another class could be
            // registered under the name: the configure step reports that mismatch).
            if entry.cellClass == cellClass {
                pool.classEntries[ObjectIdentifier(cellClass)] = entry
                pool.lastClassEntry = entry
            }
        }
        return take(from: entry, for: indexPath)
    }

    /// Dequeues, registering `cellClass` first when nothing is registered yet (`registerCell: true`).
    func dequeue(_ identifier: String, registering cellClass: TableViewCell.Type?, for indexPath: IndexPath) throws -> DequeuedCell {
        if let last = pool.lastEntry, last.identifier == identifier {
            return take(from: last, for: indexPath)
        }
        return take(from: try poolEntry(for: identifier, registering: cellClass), for: indexPath)
    }

    private func take(from entry: consuming ReusePool.Entry, for indexPath: IndexPath) -> DequeuedCell {
        // Each branch returns its own cell rather than assigning one shared variable.
        if let recycled = entry.popIdleCell() {
            pool.countReused()
            recycled.prepareForReuse()
            recycled.indexPath = indexPath
            return DequeuedCell(cell: recycled, entry: entry)
        }
        let cell = makeCell(for: entry.registration, identifier: entry.identifier)
        cell.poolIdentifier = entry.identifier
        cell.poolEntrySerial = entry.serial
        pool.countCreated()
        cell.indexPath = indexPath
        return DequeuedCell(cell: cell, entry: entry)
    }

    private func poolEntry(for identifier: String, registering cellClass: TableViewCell.Type?) throws -> ReusePool.Entry {
        if let entry = pool.entries[identifier] {
            pool.lastEntry = entry
            return entry
        }
        let registration: ReuseRegistry.Registration
        if let found = registry.registration(for: identifier) {
            registration = found
        } else if let cellClass {
            registration = try registry.registerIfNeeded(cellClass, identifier: identifier)
        } else {
            throw TableKitError.unregisteredIdentifier(identifier, registered: registry.registeredIdentifiers)
        }
        let styleClass: String
        switch registration {
        case .cellClass(let type): styleClass = type.styleClass
        case .prototype: styleClass = TableViewCell.styleClass(forIdentifier: identifier)
        }
        let entry = ReusePool.Entry(identifier: identifier, registration: registration, styleClass: styleClass)
        pool.entries[identifier] = entry
        pool.lastEntry = entry
        return entry
    }

    private func makeCell(for registration: ReuseRegistry.Registration, identifier: String) -> TableViewCell {
        switch registration {
        case .cellClass(let type):
            return type.init()
        case .prototype(let template):
            return PrototypeCell(template: template, identifier: identifier)
        }
    }
}

/// A cell taken from a pool for one row, and the pool slot it goes back to: the table's walk
/// hands the slot through the row (its row opening, then ``TableView/recycle(_:)-(DequeuedCell)``)
/// instead of asking the cell for it.
struct DequeuedCell: ~Copyable {
    let cell: TableViewCell
    let entry: ReusePool.Entry
}
