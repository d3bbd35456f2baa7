/// A list people can change, as a `UITableViewDataSource` and delegate in editing mode: delete
/// and insert rows, edit one in place with a form, reorder, and act on a row (swipe actions).
///
/// A refinement of ``TableController`` rather than more defaults on it, so that a list is
/// editable only when its controller says so (Cellar shows "Edit" for these lists alone, and a
/// database list adopts it where its table is writable) and read-only lists keep their short
/// protocol. Only ``commit(_:forRowAt:context:)`` is required; the rest follows UIKit's defaults.
///
/// ```swift
/// struct BottlesController: EditableTableController {
///     let store: BottleStore
///     let bottles: [Bottle]
///     func numberOfRows(inSection section: Int) -> Int { bottles.count }
///     func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider { … }
///     func commit(_ style: EditingStyle, forRowAt indexPath: IndexPath, context: EditingContext) throws {
///         switch style {
///         case .delete: store.remove(bottles[indexPath.row].id)
///         case .insert: store.insert(try context.decode(Bottle.self), at: indexPath.row)
///         case .none: break
///         }
///     }
///     func insertForm(inSection section: Int) -> (any FormController)? { BottleForm() }
/// }
/// ```
///
/// Cellar makes the controller for the request, finds the row by its identifier, checks the row's
/// ``version(forRowAt:)`` against the one the form carried, calls the method and then tells the
/// list's watchers it changed: a commit does not call `listDidChange` itself.
public protocol EditableTableController: TableController {
    /// Whether the row shows editing controls at all (`canEditRowAt`); true by default.
    func canEditRow(at indexPath: IndexPath) -> Bool
    /// The row's editing control (`editingStyleForRowAt`); ``EditingStyle/delete`` by default.
    func editingStyle(forRowAt indexPath: IndexPath) -> EditingStyle
    /// Makes the change (`tableView(_:commit:forRowAt:)`): `.delete` removes the row at
    /// `indexPath`; `.insert` adds a row from `context`'s values at `indexPath` — the end of a
    /// section for its insert row (``insertForm(inSection:)``), or where a deleted row was, when
    /// ``EditingContext/isUndo``.
    func commit(_ editingStyle: EditingStyle, forRowAt indexPath: IndexPath, context: EditingContext) throws
    /// The form that edits the row in place (its cell swapped for the form), its fields holding the
    /// row's values; nil (the default) when the row is not edited in place. Its values are also what
    /// "Undo" inserts again after a delete: a row without one is deleted without Undo.
    func editingForm(forRowAt indexPath: IndexPath) -> (any FormController)?
    /// Saves the row's editing form: `context` holds what was sent. Throws by default.
    func commitEdit(forRowAt indexPath: IndexPath, context: EditingContext) throws
    /// The form of the insert row at the end of `section`, or nil (the default) for none.
    func insertForm(inSection section: Int) -> (any FormController)?
    /// Whether the row shows a reorder control (`canMoveRowAt`); false by default, as UIKit shows
    /// none until the data source can move rows.
    func canMoveRow(at indexPath: IndexPath) -> Bool
    /// Moves the row (`tableView(_:moveRowAt:to:)`): `destination` is where it ends, counted as
    /// UIKit counts it, in the list without the row. Throws by default.
    func moveRow(at source: IndexPath, to destination: IndexPath, context: EditingContext) throws
    /// Where a row asked to go to `proposed` may go instead
    /// (`targetIndexPathForMoveFromRowAt:toProposedIndexPath:`); `proposed` by default.
    func targetIndexPathForMove(from source: IndexPath, to proposed: IndexPath) -> IndexPath
    /// The row's actions on its leading edge (`leadingSwipeActionsConfigurationForRowAt`); none by default.
    func leadingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration?
    /// The row's actions on its trailing edge (`trailingSwipeActionsConfigurationForRowAt`); none by default.
    func trailingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration?
    /// The row's version: a change asked for from a page that showed another version is refused
    /// (409), so that no one overwrites what they did not see. Nil (the default) lets Cellar hash
    /// the row's JSON item (``TableController/item(forRowAt:)``), or else its form's values.
    func version(forRowAt indexPath: IndexPath) -> String?
    /// Whether the delete just committed for the row `identifier` can be undone by inserting its
    /// editing form's values again; true by default. A store whose delete changed other rows too
    /// (a database's cascade) or held what the form cannot carry answers false: putting the row
    /// back would not put the rest back, so Cellar offers no Undo.
    func canUndoDelete(ofRowWithIdentifier identifier: String) -> Bool
}

extension EditableTableController {
    public func canEditRow(at indexPath: IndexPath) -> Bool { true }
    public func editingStyle(forRowAt indexPath: IndexPath) -> EditingStyle { .delete }
    public func editingForm(forRowAt indexPath: IndexPath) -> (any FormController)? { nil }
    public func commitEdit(forRowAt indexPath: IndexPath, context: EditingContext) throws {
        throw EditingError("This row cannot be edited.")
    }
    public func insertForm(inSection section: Int) -> (any FormController)? { nil }
    public func canMoveRow(at indexPath: IndexPath) -> Bool { false }
    public func moveRow(at source: IndexPath, to destination: IndexPath, context: EditingContext) throws {
        throw EditingError("This row cannot be moved.")
    }
    public func targetIndexPathForMove(from source: IndexPath, to proposed: IndexPath) -> IndexPath { proposed }
    public func leadingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration? { nil }
    public func trailingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration? { nil }
    public func version(forRowAt indexPath: IndexPath) -> String? { nil }
    public func canUndoDelete(ofRowWithIdentifier identifier: String) -> Bool { true }

    /// The row's actions, leading then trailing: what editing mode shows as buttons.
    public func contextualActions(forRowAt indexPath: IndexPath) -> [ContextualAction] {
        (leadingSwipeActions(forRowAt: indexPath)?.actions ?? []) + (trailingSwipeActions(forRowAt: indexPath)?.actions ?? [])
    }

    /// Where "Move up" (`offset` -1) or "Move down" (+1) takes the row at `source`, after
    /// ``targetIndexPathForMove(from:to:)``: one place along its section, or past the section's
    /// edge to the end of the section before or the start of the one after. Nil at the list's
    /// ends, where the row cannot move, and where the controller keeps the row in place.
    public func indexPath(movingRowAt source: IndexPath, by offset: Int) -> IndexPath? {
        precondition(offset == -1 || offset == 1, "a row moves one place at a time")
        var proposed: IndexPath
        if offset < 0 {
            if source.row > 0 {
                proposed = IndexPath(row: source.row - 1, section: source.section)
            } else {
                guard source.section > 0 else { return nil }
                proposed = IndexPath(row: numberOfRows(inSection: source.section - 1), section: source.section - 1)
            }
        } else {
            if source.row + 1 < numberOfRows(inSection: source.section) {
                proposed = IndexPath(row: source.row + 1, section: source.section)
            } else {
                guard source.section + 1 < numberOfSections else { return nil }
                proposed = IndexPath(row: 0, section: source.section + 1)
            }
        }
        proposed = targetIndexPathForMove(from: source, to: proposed)
        return proposed == source ? nil : proposed
    }
}

extension FormController {
    /// Each field's value, by name: what an edit form shows, and what "Undo" inserts again.
    public var values: [String: String] {
        var values: [String: String] = [:]
        for field in fields { values[field.name] = field.value }
        return values
    }
}
