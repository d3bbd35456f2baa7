import TableKit

/// What turns a window's old version into its new one, as operations applied in order: rows
/// removed, rows inserted beside rows the client already has, rows replaced, sections' titles
/// changed, the pager changed — or, when sections themselves came or went, a refresh.
///
/// Moved rows are removed and inserted again. Inserts are in the new version's order and each is
/// placed before the next row of its section that stayed where it was, so that rows inserted
/// side by side land in order: the client never needs a row it has not been sent yet.
struct WindowPatch: Sendable {
    enum Operation: Sendable, Equatable {
        /// The row leaves the window.
        case remove(id: String)
        /// The row enters the window in `section` (the new version's), before the row `before`
        /// (nil: at the end of the section), and after `after` (nil: the section has nothing before it).
        case insert(id: String, section: WindowVersion.Section, before: String?, after: String?)
        /// The row's content changed.
        case replace(id: String)
        /// The section's header or footer changed.
        case titles(new: WindowVersion.Section, old: WindowVersion.Section)
        /// The pager changed (the rows it counts, its links): the new version's ``WindowVersion/pager``.
        case pager
        /// The table header's live part changed (a facet's counts): the new version's ``WindowVersion/liveHeader``.
        case liveHeader
        /// The window cannot be patched row by row: the client loads it again.
        case refresh
    }

    var operations: [Operation] = []

    var isEmpty: Bool { operations.isEmpty }

    /// Rows inserted (moved rows not counted), removed (not counted either) and replaced, for the announcement.
    var counts: (inserted: Int, removed: Int, changed: Int) {
        var inserted = 0
        var removed = 0
        var changed = 0
        for operation in operations {
            switch operation {
            case .insert: inserted += 1
            case .remove: removed += 1
            case .replace: changed += 1
            case .titles, .pager, .liveHeader, .refresh: break
            }
        }
        return (inserted, removed, changed)
    }

    static let refresh = WindowPatch(operations: [.refresh])

    /// The operations from `old` to `new`, whose sections are matched by identifier: a window
    /// whose sections' identifiers changed is refreshed; the rows in `reloading` that both have are replaced even
    /// when their bytes did not change (``ListChanges/reloadedRows``).
    static func between(_ old: WindowVersion, _ new: WindowVersion, reloading: Set<String> = []) throws(SnapshotError) -> WindowPatch {
        guard old.snapshot.sectionIdentifiers == new.snapshot.sectionIdentifiers else { return refresh }
        let changes = try new.snapshot.changes(from: old.snapshot)
        var operations: [Operation] = []
        var entering = Set<String>()
        for indexPath in changes.deletedRows {
            if let id = old.identifier(at: indexPath) { operations.append(.remove(id: id)) }
        }
        for move in changes.movedRows {
            guard let id = old.identifier(at: move.from) else { continue }
            operations.append(.remove(id: id))
            entering.insert(id)
        }
        for indexPath in changes.insertedRows {
            if let id = new.identifier(at: indexPath) { entering.insert(id) }
        }
        for (position, section) in new.snapshot.sections.enumerated() {
            for (row, item) in section.enumerated() where entering.contains(item.id) {
                let before = section[(row + 1)...].first { !entering.contains($0.id) }?.id
                let after = row > 0 ? section[row - 1].id : nil
                operations.append(.insert(id: item.id, section: new.sections[position], before: before, after: after))
            }
        }
        var replaced = Set<String>()
        for indexPath in changes.reloadedRows {
            if let id = new.identifier(at: indexPath), !entering.contains(id) {
                operations.append(.replace(id: id))
                replaced.insert(id)
            }
        }
        if !reloading.isEmpty {
            for section in new.snapshot.sections {
                for item in section
                where reloading.contains(item.id) && !entering.contains(item.id) && !replaced.contains(item.id) && old.snapshot.containsItem(item.id)
                {
                    operations.append(.replace(id: item.id))
                }
            }
        }
        for (oldSection, newSection) in zip(old.sections, new.sections) where oldSection != newSection {
            operations.append(.titles(new: newSection, old: oldSection))
        }
        if old.pager != new.pager { operations.append(.pager) }
        // Replaced in place: one that appears or goes has no element to replace, and waits for a reload.
        if old.liveHeader != new.liveHeader, !old.liveHeader.isEmpty, !new.liveHeader.isEmpty { operations.append(.liveHeader) }
        return WindowPatch(operations: operations)
    }
}
