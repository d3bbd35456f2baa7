import MicroHTTP

/// The change an editing-mode button asks for (its `_do`): the action the list's permissions must
/// allow for it, and what the log calls it.
enum EditingChange: Equatable {
    case insert
    case save
    case delete
    case moveUp
    case moveDown
    /// A row dragged beside another (`_before` or `_after` names it).
    case move
    /// A row's contextual action, by its identifier.
    case action(String)
    case undo

    init(_ text: String?) throws(HTTPError) {
        switch text {
        case "insert": self = .insert
        case "save": self = .save
        case "delete": self = .delete
        case "up": self = .moveUp
        case "down": self = .moveDown
        case "move": self = .move
        case "undo": self = .undo
        case let text? where text.hasPrefix("action:") && text.utf8.count > 7: self = .action(String(text.dropFirst(7)))
        default: throw .badRequest("Say which change to make: _do is insert, save, delete, up, down, move, undo or action:<name>.")
        }
    }

    /// What the actor must be allowed: an Undo inserts the row again, a move or an action updates.
    var permission: Action {
        switch self {
        case .insert, .undo: .insert
        case .delete: .delete
        case .save, .moveUp, .moveDown, .move, .action: .update
        }
    }

    var logName: String {
        switch self {
        case .insert: "insert"
        case .save: "update"
        case .delete: "delete"
        case .moveUp, .moveDown, .move: "move"
        case .action: "action"
        case .undo: "undo"
        }
    }
}
