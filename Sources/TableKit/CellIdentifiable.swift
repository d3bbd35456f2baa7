/// A type that names its cells for the reuse registry.
///
/// The default identifier is the type's own name, as with `CellIdentifiable` in the iOS seeds and
/// Kasayon's `ReusableView`: `EngineerCell.reuseIdentifier == "EngineerCell"`, so a class cell is
/// registered and dequeued without typing its identifier by hand.
public protocol CellIdentifiable: AnyObject {
    static var reuseIdentifier: String { get }
}

extension CellIdentifiable {
    public static var reuseIdentifier: String { String(describing: self) }
}
