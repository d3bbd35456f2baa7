import ByteWriters

/// A type that names its cells for the reuse registry.
///
/// The default identifier is the type's own name, as with `CellIdentifiable` in the iOS seeds and
/// Kasayon's `ReusableView`: `EngineerCell.reuseIdentifier == "EngineerCell"`, so a class cell is
/// registered and dequeued without typing its identifier by hand.
public protocol CellIdentifiable: AnyObject {
    static var reuseIdentifier: String { get }
}

extension CellIdentifiable {
    public static var reuseIdentifier: String { ReuseIdentifierNames.name(of: self) }
}

/// The default identifiers, one per class, computed once: spelling a type's name is slow work for
/// the runtime, and a list asks for it on every row.
enum ReuseIdentifierNames {
    private static let lock = Lock()
    nonisolated(unsafe) private static var names: [ObjectIdentifier: String] = [:]

    static func name(of type: AnyObject.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = lock.withLock({ names[key] }) { return name }
        let name = String(describing: type)
        lock.withLock { names[key] = name }
        return name
    }
}
