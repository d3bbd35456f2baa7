/// An action offered on one row, as `UIContextualAction`: a title, a style and a handler. On the
/// web a swipe is a button in the row while the list is in editing mode (a menu at phone width).
///
/// ```swift
/// func trailingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration? {
///     let bottle = bottles[indexPath.row]
///     return SwipeActionsConfiguration(actions: [
///         ContextualAction(style: .normal, title: "Mark as drunk") { _ in store.markDrunk(bottle.id) }
///     ])
/// }
/// ```
public struct ContextualAction: Sendable {
    /// How the button looks: `.destructive` is drawn as a warning (it deletes or discards).
    public enum Style: String, Sendable {
        case normal
        case destructive
    }

    public var style: Style
    public var title: String
    /// The action's name in the form a button posts, stable from one request to the next: the
    /// title unless given. Two actions of one row never share it.
    public var identifier: String
    /// Runs the action. A thrown ``EditingError`` is shown in the row (422); nothing is changed
    /// by Cellar itself, and the list is told it changed once the handler returns.
    public var handler: @Sendable (EditingContext) throws -> Void

    public init(
        style: Style, title: String, identifier: String? = nil, handler: @escaping @Sendable (EditingContext) throws -> Void
    ) {
        self.style = style
        self.title = title
        self.identifier = identifier ?? title
        self.handler = handler
    }
}

/// The actions a row offers on one side, as `UISwipeActionsConfiguration`, first to last.
public struct SwipeActionsConfiguration: Sendable {
    public var actions: [ContextualAction]

    public init(actions: [ContextualAction]) {
        self.actions = actions
    }
}
