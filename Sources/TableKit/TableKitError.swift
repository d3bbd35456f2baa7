/// What can go wrong registering, dequeuing or rendering cells. Every case says what to fix.
public enum TableKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing is registered under the identifier a row asked for.
    case unregisteredIdentifier(String, registered: [String])
    /// The identifier is registered, but for another type than the one asked for.
    case typeMismatch(identifier: String, registered: String, requested: String)
    /// Two different cells claim one identifier.
    case duplicateIdentifier(String, existing: String, new: String)
    /// A prototype identifier that cannot name a file.
    case invalidIdentifier(String)
    /// A prototype template that does not compile.
    case invalidPrototype(identifier: String, file: String?, error: PrototypeTemplateError)
    /// A prototype folder that cannot be read.
    case unreadablePrototypes(path: String, reason: String)
    /// A row asked for with an index path the controller does not have.
    case rowOutOfRange(IndexPath)

    public var description: String {
        switch self {
        case .unregisteredIdentifier(let identifier, let registered):
            let list = registered.isEmpty ? "nothing is registered" : "registered: \(registered.joined(separator: ", "))"
            return "No cell is registered for reuse identifier '\(identifier)' (\(list)). "
                + "Have you registered the cell? Use register(_:) for a class cell, or add Public/prototypes/\(identifier).html."
        case .typeMismatch(let identifier, let registered, let requested):
            return "The cell registered for reuse identifier '\(identifier)' is \(registered), not \(requested)."
        case .duplicateIdentifier(let identifier, let existing, let new):
            return "Reuse identifier '\(identifier)' is already registered for \(existing); it cannot also name \(new)."
        case .invalidIdentifier(let identifier):
            return "'\(identifier)' is not a valid reuse identifier: use letters, digits, '_' and '-'."
        case .invalidPrototype(let identifier, let file, let error):
            return "Prototype '\(identifier)'\(file.map { " (\($0))" } ?? "") does not compile: \(error)"
        case .unreadablePrototypes(let path, let reason):
            return "Cannot read prototype cells from \(path): \(reason)"
        case .rowOutOfRange(let indexPath):
            return "No row at index path \(indexPath)."
        }
    }
}
