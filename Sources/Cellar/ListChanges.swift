import TableKit

/// What changed in a list, as the app says it — `performBatchUpdates`' inserted, deleted, moved and
/// reloaded rows — by each row's identity, which is the same in every watched window of the list
/// (index paths are not: windows differ in offset, sort, filters and search).
///
/// ```swift
/// store.rename("7", to: "Seven")
/// app.listDidChange(at: "/people", try ListChanges(reloaded: ["7"]))
/// ```
///
/// The watchers' patches are still the difference by identity between the version each window
/// had and the window rendered again: a statement cannot make a page wrong. What it adds:
///
/// - Rows stated reloaded are sent again (`replace`) even when their bytes did not change, as
///   `reloadRows(at:)` has UIKit configure the cell again: for a row whose look depends on more
///   than its markup (an image at the same URL, state a script keeps in the row).
/// - A change that only reloads rows skips every window that holds none of them: such a window has
///   the same rows, in the same places, under the same pager. That is the promise the app makes
///   with it — no row inserted, deleted or moved, and no header or footer that counts the
///   reloaded rows' contents changed; for anything else, call ``ListWatchers/listDidChange(at:)``.
/// - Statements that the rendered windows contradict (a row stated deleted still there, one stated
///   inserted already there, rows inserted or deleted in a change stated as reloads only) are
///   logged as errors, naming the list and the rows, as UIKit stops on an invalid batch update.
public struct ListChanges: Sendable, Equatable {
    public private(set) var insertedRows: Set<String> = []
    public private(set) var deletedRows: Set<String> = []
    public private(set) var movedRows: Set<String> = []
    public private(set) var reloadedRows: Set<String> = []

    /// Changes stated by identity.
    ///
    /// - Throws: ``ListChangesError/identityStatedTwice(_:)`` when an identity is stated more than
    ///   once (twice in one kind, or in two: a row deleted and inserted again is moved).
    public init(inserted: [String] = [], deleted: [String] = [], moved: [String] = [], reloaded: [String] = []) throws(ListChangesError) {
        var stated = Set<String>()
        for id in inserted + deleted + moved + reloaded where !stated.insert(id).inserted {
            throw .identityStatedTwice(id)
        }
        insertedRows = Set(inserted)
        deletedRows = Set(deleted)
        movedRows = Set(moved)
        reloadedRows = Set(reloaded)
    }

    /// The changes from one snapshot of the list to the next (``TableSnapshot/changes(from:)``), by
    /// identity: what a diffable data source applies. A row moved and changed is moved (a moved
    /// row is sent whole).
    ///
    /// - Throws: ``SnapshotError`` when a snapshot has an identity twice.
    public init<Content>(from old: TableSnapshot<Content>, to new: TableSnapshot<Content>) throws(SnapshotError) {
        let changes = try new.changes(from: old)
        insertedRows = Set(changes.insertedRows.compactMap { new.item(at: $0)?.id })
        deletedRows = Set(changes.deletedRows.compactMap { old.item(at: $0)?.id })
        movedRows = Set(changes.movedRows.compactMap { new.item(at: $0.to)?.id })
        reloadedRows = Set(changes.reloadedRows.compactMap { new.item(at: $0)?.id }).subtracting(movedRows)
    }

    /// Whether no change is stated.
    public var isEmpty: Bool { insertedRows.isEmpty && deletedRows.isEmpty && movedRows.isEmpty && reloadedRows.isEmpty }

    /// Whether rows were only reloaded: no row inserted, deleted or moved.
    public var onlyReloadsRows: Bool { insertedRows.isEmpty && deletedRows.isEmpty && movedRows.isEmpty }

    /// What a window rendered before (`old`) and after (`new`) the change contradicts in the
    /// statement, one phrase each; empty when nothing does.
    func contradictions(old: WindowVersion, new: WindowVersion, patch: WindowPatch) -> [String] {
        var found: [String] = []
        let stillThere = deletedRows.filter { new.snapshot.containsItem($0) }
        if !stillThere.isEmpty { found.append("rows stated deleted are still in the list: \(stillThere.sorted())") }
        let alreadyThere = insertedRows.filter { old.snapshot.containsItem($0) }
        if !alreadyThere.isEmpty { found.append("rows stated inserted were there before: \(alreadyThere.sorted())") }
        let counts = patch.counts
        if onlyReloadsRows && (counts.inserted > 0 || counts.removed > 0) {
            found.append(
                "rows entered or left the window in a change stated as reloads only "
                    + "(windows without the reloaded rows were not rendered again; call listDidChange(at:) without changes)")
        }
        return found
    }
}

/// Changes an app stated that cannot be applied.
public enum ListChangesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The identity appears more than once among the stated changes.
    case identityStatedTwice(String)

    public var description: String {
        switch self {
        case .identityStatedTwice(let id):
            "The row identity '\(id)' is stated more than once in one change; state each row once "
                + "(a row deleted and inserted again is moved, and a moved row is sent whole)."
        }
    }
}
