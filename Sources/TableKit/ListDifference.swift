/// Where a row or a section was in the old version of a list (`from`) and where it is in the new
/// one (`to`): a move, or an update of a row present in both.
public struct PositionChange<Position: Hashable & Sendable>: Hashable, Sendable {
    public var from: Position
    public var to: Position

    public init(from: Position, to: Position) {
        self.from = from
        self.to = to
    }
}

/// Two versions of a list of identified rows that cannot be compared: an identity appears twice.
public enum SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The identity `id` appears more than once in the old or the new version (`inOldVersion`).
    case duplicateIdentifier(String, inOldVersion: Bool)
    /// A section identity appears more than once.
    case duplicateSection(String)
    /// Items were appended to a section the snapshot does not have.
    case unknownSection(String)

    public var description: String {
        switch self {
        case .duplicateIdentifier(let id, let old):
            "The row identity '\(id)' appears more than once in the \(old ? "old" : "new") version of the list; "
                + "each row needs its own identity (its id, not a position or a label) for the difference to be computed."
        case .duplicateSection(let id):
            "The section identity '\(id)' appears more than once in the snapshot; each section needs its own."
        case .unknownSection(let id):
            "The snapshot has no section '\(id)'; append the section before its items."
        }
    }
}

/// The difference between two versions of a list whose rows have an identity and a content:
/// which rows were deleted, inserted, moved and updated, as `performBatchUpdates` wants them.
///
/// Paul Heckel's algorithm ("A technique for isolating differences between files", 1978), as
/// IGListKit and DifferenceKit use it: rows are matched by identity through one dictionary, in
/// passes over each version. Indices follow UIKit's batch-update convention: ``deletes`` and the
/// `from` of ``moves`` are positions in the old version, ``inserts`` and the `to` of ``moves`` in
/// the new one; an update names a row present in both whose content differs.
///
/// Moves are minimal: the rows whose relative order is unchanged are the longest increasing run of
/// old positions in new order, and every other matched row is one move. Rows that only shifted
/// because others were inserted or deleted before them are not moves.
///
/// ## Cost
///
/// Linear in the rows of both versions, with one dictionary entry per old row, plus the longest
/// increasing run, which costs O(1) a row while rows keep their order and O(log n) for a row that
/// moved (patience sorting). ``operations`` counts the steps, for the tests that check it.
public struct ListDifference: Sendable, Equatable {
    /// A row that moved: its position in the old version (`from`) and in the new one (`to`).
    public typealias Move = PositionChange<Int>
    /// A row present in both versions whose content changed: its position in each.
    public typealias Update = PositionChange<Int>

    /// Positions in the old version of rows the new one does not have, ascending.
    public var deletes: [Int] = []
    /// Positions in the new version of rows the old one did not have, ascending.
    public var inserts: [Int] = []
    /// Rows whose order relative to the others changed, by new position.
    public var moves: [Move] = []
    /// Rows whose content differs, by new position (a moved row can be updated too).
    public var updates: [Update] = []
    /// The steps the computation took (dictionary operations, comparisons, binary-search probes).
    public var operations = 0

    /// Whether the two versions are the same.
    public var isEmpty: Bool { deletes.isEmpty && inserts.isEmpty && moves.isEmpty && updates.isEmpty }

    /// Creates a difference from explicit changes (``operations`` is 0).
    public init(deletes: [Int] = [], inserts: [Int] = [], moves: [Move] = [], updates: [Update] = []) {
        self.deletes = deletes
        self.inserts = inserts
        self.moves = moves
        self.updates = updates
    }

    /// The difference from `old` to `new`, rows given as (identity, content).
    ///
    /// - Throws: ``SnapshotError/duplicateIdentifier(_:inOldVersion:)`` naming the first identity that appears twice.
    public init<Content: Equatable>(from old: [(id: String, content: Content)], to new: [(id: String, content: Content)]) throws(SnapshotError) {
        try self.init(
            oldCount: old.count, newCount: new.count, oldID: { old[$0].id }, newID: { new[$0].id },
            sameContent: { old[$0].content == new[$1].content })
    }

    /// The difference between versions read through closures: identities by position, and whether
    /// the rows at an old and a new position have the same content.
    init(
        oldCount: Int, newCount: Int, oldID: (Int) -> String, newID: (Int) -> String, sameContent: (Int, Int) -> Bool
    ) throws(SnapshotError) {
        var steps = 0
        // Pass 1: each old identity to its position.
        var oldPositions: [String: Int] = [:]
        oldPositions.reserveCapacity(oldCount)
        for index in 0..<oldCount {
            steps += 1
            if oldPositions.updateValue(index, forKey: oldID(index)) != nil { throw .duplicateIdentifier(oldID(index), inOldVersion: true) }
        }
        // Pass 2: each new row to its old position, or an insert; a second sighting of an identity is a duplicate.
        var matchOfNew = [Int](repeating: -1, count: newCount)
        var matchOfOld = [Int](repeating: -1, count: oldCount)
        var seenNew: Set<String> = []
        seenNew.reserveCapacity(newCount)
        for index in 0..<newCount {
            steps += 2
            let id = newID(index)
            if !seenNew.insert(id).inserted { throw .duplicateIdentifier(id, inOldVersion: false) }
            if let oldIndex = oldPositions[id] {
                matchOfNew[index] = oldIndex
                matchOfOld[oldIndex] = index
            } else {
                inserts.append(index)
            }
        }
        // Pass 3: old rows no new row matched.
        for index in 0..<oldCount where matchOfOld[index] < 0 {
            steps += 1
            deletes.append(index)
        }
        steps += oldCount
        // Pass 4: the matched rows that keep their relative order; the others move. Updates by content.
        let kept = Self.longestIncreasingRun(matchOfNew, steps: &steps)
        for index in 0..<newCount {
            steps += 1
            let oldIndex = matchOfNew[index]
            guard oldIndex >= 0 else { continue }
            if !kept[index] { moves.append(Move(from: oldIndex, to: index)) }
            if !sameContent(oldIndex, index) { updates.append(Update(from: oldIndex, to: index)) }
        }
        operations = steps
    }

    /// Marks, by new position, the matched rows forming a longest run of increasing old positions
    /// (patience sorting with predecessor links; unmatched rows, -1, are skipped).
    static func longestIncreasingRun(_ oldPositions: [Int], steps: inout Int) -> [Bool] {
        // tails[k]: the new position whose old position ends the best run of length k + 1 found so far.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: oldPositions.count)
        for index in oldPositions.indices {
            let value = oldPositions[index]
            steps += 1
            guard value >= 0 else { continue }
            // Rows that kept their order extend the run at once; only a row that moved searches.
            if let last = tails.last, oldPositions[last] > value {
                var low = 0
                var high = tails.count - 1
                while low < high {
                    steps += 1
                    let middle = (low + high) / 2
                    if oldPositions[tails[middle]] < value { low = middle + 1 } else { high = middle }
                }
                previous[index] = low > 0 ? tails[low - 1] : -1
                tails[low] = index
            } else {
                previous[index] = tails.last ?? -1
                tails.append(index)
            }
        }
        var kept = [Bool](repeating: false, count: oldPositions.count)
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            steps += 1
            kept[cursor] = true
            cursor = previous[cursor]
        }
        return kept
    }
}
