/// The state of a table at one moment: its sections and, in each, its rows' identities and contents.
///
/// Cellar's `NSDiffableDataSourceSnapshot`: build one for each version of the data, and
/// ``changes(from:)`` works out what changed between two of them by each row's identity, as
/// UIKit does when a diffable data source applies a new snapshot. Identities are unique across the
/// whole snapshot (a row moved between sections is one row); the content is whatever tells whether
/// a row must be drawn again (the item itself when it is `Equatable`, or a hash of it).
///
/// ```swift
/// var snapshot = TableSnapshot<Wine>()
/// try snapshot.appendSections(["reds"])
/// try snapshot.appendItems(reds.map { (id: $0.id, content: $0) })
/// let changes = try snapshot.changes(from: previous)   // inserted, deleted, moved and reloaded rows
/// ```
public struct TableSnapshot<Content: Equatable & Sendable>: Sendable, Equatable {
    /// A row: its identity and its content.
    public struct Item: Sendable, Equatable {
        public var id: String
        public var content: Content

        public init(id: String, content: Content) {
            self.id = id
            self.content = content
        }
    }

    /// The sections' identities, in order.
    public private(set) var sectionIdentifiers: [String] = []
    /// Each section's rows, in order.
    public private(set) var sections: [[Item]] = []
    private var identities: Set<String> = []

    /// An empty snapshot.
    public init() {}

    /// Appends sections.
    ///
    /// - Throws: ``SnapshotError/duplicateSection(_:)`` when a section is already in the snapshot.
    public mutating func appendSections(_ identifiers: [String]) throws(SnapshotError) {
        for identifier in identifiers {
            if sectionIdentifiers.contains(identifier) { throw .duplicateSection(identifier) }
            sectionIdentifiers.append(identifier)
            sections.append([])
        }
    }

    /// Appends rows to `section`, or to the last section when nil (one is made, named "", if there is none).
    ///
    /// - Throws: ``SnapshotError/duplicateIdentifier(_:inOldVersion:)`` for an identity already in the
    ///   snapshot, ``SnapshotError/unknownSection(_:)`` for a section it does not have.
    public mutating func appendItems(_ items: [(id: String, content: Content)], toSection section: String? = nil) throws(SnapshotError) {
        if section == nil && sections.isEmpty { try appendSections([""]) }
        guard let index = section.map({ sectionIdentifiers.firstIndex(of: $0) }) ?? sections.indices.last else {
            throw .unknownSection(section ?? "")
        }
        for item in items {
            if !identities.insert(item.id).inserted { throw .duplicateIdentifier(item.id, inOldVersion: false) }
            sections[index].append(Item(id: item.id, content: item.content))
        }
    }

    /// The number of sections.
    public var numberOfSections: Int { sections.count }

    /// The number of rows in all sections.
    public var numberOfItems: Int { identities.count }

    /// The number of rows in a section.
    public func numberOfItems(inSection section: Int) -> Int { sections[section].count }

    /// Whether a row has the identity `id`.
    public func containsItem(_ id: String) -> Bool { identities.contains(id) }

    /// Every row's identity, section after section.
    public var itemIdentifiers: [String] { sections.flatMap { $0.map(\.id) } }

    /// The row at `indexPath`, or nil when the snapshot has none there.
    public func item(at indexPath: IndexPath) -> Item? {
        guard sections.indices.contains(indexPath.section), sections[indexPath.section].indices.contains(indexPath.row) else { return nil }
        return sections[indexPath.section][indexPath.row]
    }

    /// What changed from `old` to this snapshot: sections and rows inserted, deleted and moved, and
    /// rows whose content changed (reloaded). Rows of inserted and deleted sections are listed too:
    /// a web page patches rows one by one.
    public func changes(from old: TableSnapshot) throws(SnapshotError) -> SnapshotChanges {
        let sectionDifference = try ListDifference(
            oldCount: old.sectionIdentifiers.count, newCount: sectionIdentifiers.count, oldID: { old.sectionIdentifiers[$0] },
            newID: { sectionIdentifiers[$0] }, sameContent: { _, _ in true })
        let oldRows = old.flattened()
        let newRows = flattened()
        let rows = try ListDifference(
            oldCount: oldRows.count, newCount: newRows.count, oldID: { oldRows[$0].item.id }, newID: { newRows[$0].item.id },
            sameContent: { oldRows[$0].item.content == newRows[$1].item.content })
        return SnapshotChanges(
            insertedSections: sectionDifference.inserts, deletedSections: sectionDifference.deletes,
            movedSections: sectionDifference.moves.map { SnapshotChanges.SectionMove(from: $0.from, to: $0.to) },
            insertedRows: rows.inserts.map { newRows[$0].indexPath }, deletedRows: rows.deletes.map { oldRows[$0].indexPath },
            movedRows: rows.moves.map { SnapshotChanges.RowMove(from: oldRows[$0.from].indexPath, to: newRows[$0.to].indexPath) },
            reloadedRows: rows.updates.map { newRows[$0.to].indexPath })
    }

    private func flattened() -> [(item: Item, indexPath: IndexPath)] {
        var rows: [(item: Item, indexPath: IndexPath)] = []
        rows.reserveCapacity(identities.count)
        for (section, items) in sections.enumerated() {
            for (row, item) in items.enumerated() { rows.append((item, IndexPath(row: row, section: section))) }
        }
        return rows
    }

    public static func == (lhs: TableSnapshot, rhs: TableSnapshot) -> Bool {
        lhs.sectionIdentifiers == rhs.sectionIdentifiers && lhs.sections == rhs.sections
    }
}

/// Changes to a table, in `performBatchUpdates` terms: what ``TableSnapshot/changes(from:)``
/// computes, or what an app that knows them says itself (`insertRows(at:)`, `deleteRows(at:)`,
/// `moveRow(at:to:)`, `reloadRows(at:)`).
///
/// Deleted rows and sections, and the `from` of moves, are positions in the old version; inserted
/// ones, the `to` of moves and reloaded rows, positions in the new one.
public struct SnapshotChanges: Sendable, Equatable {
    /// A section that moved, by its position in each version.
    public typealias SectionMove = PositionChange<Int>
    /// A row that moved, by its index path in each version.
    public typealias RowMove = PositionChange<IndexPath>

    public var insertedSections: [Int]
    public var deletedSections: [Int]
    public var movedSections: [SectionMove]
    public var insertedRows: [IndexPath]
    public var deletedRows: [IndexPath]
    public var movedRows: [RowMove]
    public var reloadedRows: [IndexPath]

    /// Changes stated explicitly.
    public init(
        insertedSections: [Int] = [], deletedSections: [Int] = [], movedSections: [SectionMove] = [], insertedRows: [IndexPath] = [],
        deletedRows: [IndexPath] = [], movedRows: [RowMove] = [], reloadedRows: [IndexPath] = []
    ) {
        self.insertedSections = insertedSections
        self.deletedSections = deletedSections
        self.movedSections = movedSections
        self.insertedRows = insertedRows
        self.deletedRows = deletedRows
        self.movedRows = movedRows
        self.reloadedRows = reloadedRows
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        insertedSections.isEmpty && deletedSections.isEmpty && movedSections.isEmpty && insertedRows.isEmpty && deletedRows.isEmpty
            && movedRows.isEmpty && reloadedRows.isEmpty
    }
}
