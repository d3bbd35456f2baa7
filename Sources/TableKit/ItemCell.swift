import ByteWriters

/// A cell that shows one model object per row: the row's item is set by configuration and lent
/// to ``render(_:into:)`` for the time of the render.
///
/// Lending is the point. A cell written the plain way — `var person: Person?`, then
/// `guard let person` in `render(into:)` — copies the reference out of the cell, and every
/// `html.text(person.email)` on that copy retains and releases the string: atomic operations,
/// several per row. Here the item is read once through a guaranteed reference, and its text is
/// borrowed as it is written.
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
    // The item is owned by `storage`; `reference` is the same pointer, unretained, which rendering
    // borrows: `storage` keeps it alive for as long as the cell holds it.
    @exclusivity(unchecked) private var storage: Item?
    @exclusivity(unchecked) private var reference: Unmanaged<Item>?

    public required init() {}

    /// The row's item, until the next reuse.
    public var item: Item? {
        get { storage }
        set {
            // No `Optional.map`: this runs unspecialized for the subclass's item type, once per row.
            if let newValue {
                reference = Unmanaged.passUnretained(newValue)
            } else {
                reference = nil
            }
            storage = newValue
        }
    }

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
        guard let reference else { return }
        try reference._withUnsafeGuaranteedRef { try render($0, into: &html) }
    }
}
