import ByteWriters

/// A cell that shows one model object per row: the row's item is set by configuration and lent
/// to ``render(_:into:)`` for the time of the render.
///
/// The cell reads its item once per row and lends it to ``render(_:into:)``, which writes the
/// item's text as it is stored.
///
/// ```swift
/// final class EngineerCell: ItemCell<Person> {
///     override func render(_ person: Person, into html: inout HTMLWriter) {
///         html.element("span", class: "cell-title", text: person.name)
///     }
/// }
///
/// DataCellProvider(for: indexPath) { (cell: EngineerCell) in cell.item = person }
/// ```
///
/// It is also a ``ConfigurableCell`` whose `CellData` is the item (SGTableViewHelper's
/// configurer with a model object): `DataCellProvider(for:cell:data:)` works too, though for a
/// subclass in another module it looks the item's type up at run time on every row, which the
/// closure does not. A subclass that overrides ``prepareForReuse()`` calls `super`, which lets go
/// of the previous row's item.
open class ItemCell<Item: AnyObject>: TableViewCell, ConfigurableCell {
    public required init() {}

    /// The row's item, until the next reuse.
    public final var item: Item? {
        get { storedItem }
        set { storedItem = newValue }
    }
    // Stored apart, seen by this module only: the whole-module release build proves its
    // accesses exclusive at compile time (a public stored property keeps run-time checks).
    var storedItem: Item?

    /// Sets the row's item.
    public func configure(with item: Item) {
        self.item = item
    }

    /// Lets go of the previous row's item. An override calls `super`.
    open override func prepareForReuse() {
        item = nil
    }

    /// Writes the row's content for `item`, which the cell holds for the whole call.
    open func render(_ item: Item, into html: inout HTMLWriter) throws {}

    /// Lends the item to ``render(_:into:)``; writes nothing when the cell has none.
    public final override func render(into html: inout HTMLWriter) throws {
        guard let item else { return }
        try render(item, into: &html)
    }
}
