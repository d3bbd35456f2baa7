import ByteWriters

/// How one row gets its cell: an identifier, an index path, whether to register on first use,
/// and a typed configuration. A value made per row, used once and thrown away.
///
/// From shaps80's Generic Cell Providers: the closure's parameter type picks the cell class, so a
/// wrong cell type in a configure closure does not compile, and no identifier is typed by hand:
///
/// ```swift
/// DataCellProvider(for: indexPath) { (cell: EngineerCell) in cell.person = person }
/// DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: person)
/// DataCellProvider(for: indexPath, cell: ToggleCell.self, data: (title: "Wi-Fi", isOn: true))
/// ```
public struct DataCellProvider {
    /// The identifier the cell is dequeued by.
    @inlinable public var reuseIdentifier: String { explicitIdentifier ?? configuration.cellClass?.reuseIdentifier ?? "" }
    /// The class of a class cell (nil for prototypes and `CellData` rows).
    @inlinable public var cellClass: TableViewCell.Type? { configuration.cellClass }
    /// Whether the cell is dequeued under its class's own name (no identifier was given).
    @inlinable public var isDequeuedByClass: Bool { explicitIdentifier == nil }
    /// Whether the cell is dequeued under `identifier`, given to the provider (a prototype, a
    /// ``CellData`` row, or a class cell under another name than its own); compared in place,
    /// without copying the identifier out.
    @inlinable public func isDequeued(byIdentifier identifier: String) -> Bool { explicitIdentifier == identifier }
    /// The identifier given when it is not the class's own name (which is looked up without spelling it).
    @usableFromInline let explicitIdentifier: String?
    /// The row this provider is for.
    public let indexPath: IndexPath
    /// Whether the cell class registers itself on first use. Prototypes are never registered this
    /// way: their identifier must already be registered at start-up.
    public let registerCell: Bool
    @usableFromInline let configuration: any CellConfiguration

    /// A class cell, configured by a closure whose parameter type names the class.
    @inlinable public init<Cell: TableViewCell>(
        reuseIdentifier: String? = nil, for indexPath: IndexPath, registerCell: Bool = true,
        configure: @escaping (Cell) throws -> Void
    ) {
        explicitIdentifier = reuseIdentifier
        self.indexPath = indexPath
        self.registerCell = registerCell
        configuration = ClosureConfiguration(configure: configure)
    }

    /// A ``ConfigurableCell``, configured with its typed `CellData` (SGTableViewHelper's `SGCellConfigurer`).
    @inlinable public init<Cell: ConfigurableCell>(
        reuseIdentifier: String? = nil, for indexPath: IndexPath, cell: Cell.Type, data: Cell.CellData,
        registerCell: Bool = true
    ) {
        explicitIdentifier = reuseIdentifier
        self.indexPath = indexPath
        self.registerCell = registerCell
        configuration = DataConfiguration<Cell>(data: data)
    }

    /// A prototype cell (`Public/prototypes/<identifier>.html`), filled from `data`.
    @inlinable public init<Data: PrototypeData>(prototype identifier: String, for indexPath: IndexPath, data: Data) {
        explicitIdentifier = identifier
        self.indexPath = indexPath
        registerCell = false
        configuration = PrototypeConfiguration(data: data)
    }

    /// A heterogeneous row (SwiftCleanTools' `CellDataProtocol`): dispatched by the data's
    /// ``CellData/cellIdentifier`` to a cell that adopts ``CellDataConfigurable``.
    public init(cellData: any CellData, for indexPath: IndexPath) {
        explicitIdentifier = cellData.cellIdentifier
        self.indexPath = indexPath
        registerCell = false
        configuration = CellDataConfiguration(data: cellData)
    }

    /// The row's data as a prototype reads it, when the row is filled from ``PrototypeData``: a
    /// prototype provider's data, or a `CellData` row's that also adopts it. For start-up checks
    /// such as ``PrototypeTagAudit``; rendering does not go through it.
    var prototypeData: (any PrototypeData)? { configuration.prototypeData }

    /// Dequeues the cell from `tableView` and configures it for this row.
    public func dequeueConfiguredCell(from tableView: TableView, selection: consuming RowSelection? = nil) throws -> TableViewCell {
        let row = try dequeueCell(from: tableView, selection: selection)
        do {
            try configuration.configure(row.cell, identifier: explicitIdentifier)
        } catch {
            tableView.recycle(row)
            throw error
        }
        return row.cell
    }

    /// The table's own path, after `dequeueCell(from:selection:)` and the row's opening markup:
    /// configures `cell` and renders it. A prototype's data is lent to its template for the
    /// render instead of stored in the cell, which saves two reference-count operations (atomic,
    /// as the rows are shared between threads) per row: after it, the cell's `data` is `nil`.
    /// On an error the caller recycles the cell.
    func configureAndRender(_ cell: TableViewCell, into html: inout HTMLWriter) throws {
        try configuration.configureAndRender(cell, identifier: explicitIdentifier, into: &html)
    }

    /// Takes the cell for this row from the table view's pool, holding `selection`; not
    /// configured. The pool slot comes with it, for the row's opening and its recycling.
    func dequeueCell(from tableView: TableView, selection: consuming RowSelection?) throws -> DequeuedCell {
        let row: DequeuedCell
        if let explicitIdentifier {
            row = try tableView.dequeue(explicitIdentifier, registering: registerCell ? configuration.cellClass : nil, for: indexPath)
        } else if let cellClass = configuration.cellClass {
            row = try tableView.dequeue(cellClass, registering: registerCell, for: indexPath)
        } else {
            throw TableKitError.unregisteredIdentifier("", registered: tableView.registry.registeredIdentifiers)
        }
        // A dequeued cell holds no selection (recycling clears it): only one given is stored.
        if let selection { row.cell.storedSelection = selection }
        return row
    }
}

extension DataCellProvider {
    /// The identifier of the cell this provider dequeues, checked against `registry` as dequeuing
    /// checks it: a class cell made with `registerCell: true` is registered on first use, and an
    /// identifier nothing is registered under throws the same ``TableKitError``. For a row
    /// written without dequeuing a cell (its JSON), so that both formats agree.
    public func resolvedIdentifier(in registry: ReuseRegistry) throws -> String {
        let identifier = reuseIdentifier
        if registry.isRegistered(identifier) { return identifier }
        if registerCell, let cellClass = configuration.cellClass {
            _ = try registry.registerIfNeeded(cellClass, identifier: identifier)
            return identifier
        }
        throw TableKitError.unregisteredIdentifier(identifier, registered: registry.registeredIdentifiers)
    }
}

/// Hands out a ``DataCellProvider`` per row. A controller adopts it, or a separate value that
/// serves the same cells to many lists.
public protocol DataCellProviding {
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider
}

// One small struct per configuration style, stored as an existential that fits its inline
// buffer: the only allocation per row is what a configure closure captures.
@usableFromInline protocol CellConfiguration {
    var cellClass: TableViewCell.Type? { get }
    func configure(_ cell: TableViewCell, identifier: String?) throws
    /// Configures `cell` and renders it; the default configures, then renders.
    func configureAndRender(_ cell: TableViewCell, identifier: String?, into html: inout HTMLWriter) throws
    /// The data a prototype cell would be filled from; `nil` by default (a class cell's row).
    var prototypeData: (any PrototypeData)? { get }
}

extension CellConfiguration {
    @usableFromInline var prototypeData: (any PrototypeData)? { nil }

    @usableFromInline func configureAndRender(_ cell: TableViewCell, identifier: String?, into html: inout HTMLWriter) throws {
        try configure(cell, identifier: identifier)
        try cell.render(into: &html)
    }
}

@usableFromInline func mismatch(_ cell: TableViewCell, _ identifier: String?, expected: Any.Type) -> TableKitError {
    .typeMismatch(
        identifier: identifier ?? cell.poolIdentifier ?? cell.reuseIdentifier, registered: String(reflecting: type(of: cell)),
        requested: String(reflecting: expected))
}

@usableFromInline struct ClosureConfiguration<Cell: TableViewCell>: CellConfiguration {
    @usableFromInline let configure: (Cell) throws -> Void
    @usableFromInline var cellClass: TableViewCell.Type? { Cell.self }
    @usableFromInline init(configure: @escaping (Cell) throws -> Void) { self.configure = configure }

    @usableFromInline func configure(_ cell: TableViewCell, identifier: String?) throws {
        // `is`, then `as!` of the borrowed reference: two run-time checks for a generic cell,
        // which cost less than the retain and release of the new reference `as?` hands back.
        guard cell is Cell else { throw mismatch(cell, identifier, expected: Cell.self) }
        try configure(cell as! Cell)
    }
}

@usableFromInline struct DataConfiguration<Cell: ConfigurableCell>: CellConfiguration {
    @usableFromInline let data: Cell.CellData
    @usableFromInline var cellClass: TableViewCell.Type? { Cell.self }
    @usableFromInline init(data: Cell.CellData) { self.data = data }

    @usableFromInline func configure(_ cell: TableViewCell, identifier: String?) throws {
        guard cell is Cell else { throw mismatch(cell, identifier, expected: Cell.self) }
        try (cell as! Cell).configure(with: data)
    }
}

@usableFromInline struct PrototypeConfiguration<Data: PrototypeData>: CellConfiguration {
    @usableFromInline let data: Data
    @usableFromInline var cellClass: TableViewCell.Type? { nil }
    @usableFromInline init(data: Data) { self.data = data }
    @usableFromInline var prototypeData: (any PrototypeData)? { data }

    @usableFromInline func configure(_ cell: TableViewCell, identifier: String?) throws {
        guard cell is PrototypeCell else { throw mismatch(cell, identifier, expected: PrototypeCell.self) }
        (cell as! PrototypeCell).replaceData(with: data)
    }

    @usableFromInline func configureAndRender(_ cell: TableViewCell, identifier: String?, into html: inout HTMLWriter) throws {
        guard cell is PrototypeCell else { throw mismatch(cell, identifier, expected: PrototypeCell.self) }
        // Lent, not stored: the provider holds the data until the row is written.
        (cell as! PrototypeCell).render(lending: data, into: &html)
    }
}

private struct CellDataConfiguration: CellConfiguration {
    let data: any CellData
    var cellClass: TableViewCell.Type? { nil }
    var prototypeData: (any PrototypeData)? { data as? any PrototypeData }

    func configure(_ cell: TableViewCell, identifier: String?) throws {
        if let cell = cell as? any CellDataConfigurable {
            try cell.configure(with: data)
        } else if let cell = cell as? PrototypeCell, let values = data as? any PrototypeData {
            cell.data = values
        } else {
            throw mismatch(cell, identifier, expected: (any CellDataConfigurable).self)
        }
    }
}
