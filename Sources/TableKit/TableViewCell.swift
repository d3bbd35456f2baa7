import ByteWriters

/// A cell: one row's HTML, rendered by an instance that is recycled across rows and requests.
///
/// Subclass it, keep the row's data in stored properties, reset them in ``prepareForReuse()``
/// and write the row's markup in ``render(into:)``. Cells are made by the ``TableView`` through
/// the ``ReuseRegistry`` (never by hand) with the required `init()`, and only ever used by one
/// render at a time, so they need no locking.
///
/// The table writes the row's `<li class="cell …" id="row-…">` element around what
/// ``render(into:)`` writes; a cell writes the row's content only.
open class TableViewCell: CellIdentifiable {
    /// Where this row's selection leads (its detail page), set by the table before configuration.
    public final internal(set) var selection: RowSelection? {
        get { storedSelection }
        set { storedSelection = newValue }
    }
    /// The index path this cell was last dequeued for.
    public final internal(set) var indexPath: IndexPath {
        get { storedIndexPath }
        set { storedIndexPath = newValue }
    }
    // The table sets these on every row. Stored properties only this module sees (the public
    // ones above are computed): the release build, optimised as a whole module, then sees every
    // access and proves them exclusive at compile time, with no run-time checks left.
    // The module's own writes go to the stored property (a write through the computed setter
    // kept the cell retained around it).
    var storedSelection: RowSelection?
    var storedIndexPath = IndexPath(row: 0, section: 0)
    /// The pool slot this instance was made for, which ``TableView/recycle(_:)`` gives it back
    /// to: its identifier, and the slot's serial number, which no other slot has (nil and 0 for
    /// a cell made by hand, which no pool takes). Values, not a reference: a slot owns its idle
    /// cells, and the table's own walk hands the slot through the row instead.
    var poolIdentifier: String?
    var poolEntrySerial: UInt64 = 0
    /// While the cell is idle in its pool: the cell recycled before it (the pool's free list).
    var nextIdleCell: TableViewCell?
    /// Whether the cell is in its pool's idle list (recycled and not dequeued since).
    var isIdle = false

    public required init() {}

    /// The identifier this class registers under by default: the class's own name.
    open class var reuseIdentifier: String { ReuseIdentifierNames.name(of: self) }

    /// The identifier of this cell's class.
    public var reuseIdentifier: String { type(of: self).reuseIdentifier }

    /// The CSS class the table puts on the row element, after `cell`: by default the
    /// identifier without a `Cell` suffix, lowercased (`EngineerCell` → `engineer`).
    open class var styleClass: String { TableViewCell.styleClass(forIdentifier: reuseIdentifier) }

    /// Resets the state a previous row left behind. Called on every reuse, before configuration.
    open func prepareForReuse() {}

    /// Writes the row's content. Text goes through ``HTMLWriter`` and is escaped by construction.
    open func render(into html: inout HTMLWriter) throws {}

    static func styleClass(forIdentifier identifier: String) -> String {
        let base = identifier.hasSuffix("Cell") && identifier.count > 4 ? String(identifier.dropLast(4)) : identifier
        return base.lowercased()
    }
}
