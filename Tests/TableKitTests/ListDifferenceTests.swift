import TableKit
import Testing

struct ListDifferenceTests {
    typealias Row = (id: String, content: Int)

    /// A seeded generator (SplitMix64), so every run checks the same pairs.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Applies `difference` to `old` as UIKit's batch updates do: deletes and moves' sources out of
    /// the old list, then inserts and moves' destinations in at their new positions, then updates.
    static func apply(_ difference: ListDifference, to old: [Row], new: [Row]) -> [Row] {
        let removed = Set(difference.deletes).union(difference.moves.map(\.from))
        var result: [Row?] = old.enumerated().filter { !removed.contains($0.offset) }.map { $0.element }
        var placed: [Int: Row] = [:]
        for index in difference.inserts { placed[index] = new[index] }
        for move in difference.moves { placed[move.to] = old[move.from] }
        for index in placed.keys.sorted() { result.insert(placed[index], at: min(index, result.count)) }
        var rows = result.compactMap { $0 }
        for update in difference.updates { rows[update.to].content = new[update.to].content }
        return rows
    }

    /// The longest increasing run of the matched old positions, by the plain quadratic method.
    static func longestRun(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }

    static func randomPair(_ random: inout SeededGenerator, size: Int) -> (old: [Row], new: [Row]) {
        let old: [Row] = (0..<size).map { (id: "r\($0)", content: Int.random(in: 0..<3, using: &random)) }
        var new = old.filter { _ in Int.random(in: 0..<5, using: &random) != 0 }  // deletes
        for index in new.indices where Int.random(in: 0..<4, using: &random) == 0 { new[index].content += 1 }  // updates
        for _ in 0..<Int.random(in: 0...3, using: &random) where new.count > 1 {  // moves
            let row = new.remove(at: Int.random(in: 0..<new.count, using: &random))
            new.insert(row, at: Int.random(in: 0...new.count, using: &random))
        }
        for number in 0..<Int.random(in: 0...5, using: &random) {  // inserts
            new.insert((id: "n\(number)", content: 0), at: Int.random(in: 0...new.count, using: &random))
        }
        if Int.random(in: 0..<10, using: &random) == 0 { new.shuffle(using: &random) }
        return (old, new)
    }

    @Test func applyingTheDifferenceToTheOldListGivesTheNewOneForThousandsOfRandomPairs() throws {
        var random = SeededGenerator(state: 29)
        for _ in 0..<2000 {
            let (old, new) = Self.randomPair(&random, size: Int.random(in: 0...40, using: &random))
            let difference = try ListDifference(from: old, to: new)
            let applied = Self.apply(difference, to: old, new: new)
            #expect(applied.map(\.id) == new.map(\.id) && applied.map(\.content) == new.map(\.content), "\(old) → \(new)")
            // Updates only where the content differs, and every such row has one.
            let oldContent = Dictionary(uniqueKeysWithValues: old.map { ($0.id, $0.content) })
            let changed = new.indices.filter { index in oldContent[new[index].id].map { $0 != new[index].content } ?? false }
            #expect(difference.updates.map(\.to) == changed)
            // Moves are minimal: every matched row outside one longest increasing run of old positions.
            let matched = new.compactMap { row in old.firstIndex { $0.id == row.id } }
            #expect(difference.moves.count == matched.count - Self.longestRun(matched))
            #expect(difference.deletes == difference.deletes.sorted() && difference.inserts == difference.inserts.sorted())
        }
    }

    @Test func rowsThatOnlyShiftAreNotMoves() throws {
        let old: [Row] = ["a", "b", "c", "d", "e"].map { (id: $0, content: 0) }
        let new: [Row] = ["x", "a", "c", "d", "y", "e"].map { (id: $0, content: $0 == "d" ? 1 : 0) }
        let difference = try ListDifference(from: old, to: new)
        #expect(difference.moves.isEmpty)
        #expect(difference.deletes == [1])
        #expect(difference.inserts == [0, 4])
        #expect(difference.updates == [.init(from: 3, to: 3)])
    }

    @Test func oneRowTakenFromTheFrontToTheBackIsOneMove() throws {
        let old: [Row] = (0..<10).map { (id: "\($0)", content: 0) }
        let new = Array(old.dropFirst()) + [old[0]]
        let difference = try ListDifference(from: old, to: new)
        #expect(difference.moves == [.init(from: 0, to: 9)])
        #expect(difference.deletes.isEmpty && difference.inserts.isEmpty && difference.updates.isEmpty)
    }

    @Test func emptyListsAndIdenticalOnes() throws {
        let empty: [Row] = []
        let rows: [Row] = [(id: "a", content: 1), (id: "b", content: 2)]
        #expect(try ListDifference(from: empty, to: empty).isEmpty)
        #expect(try ListDifference(from: rows, to: rows).isEmpty)
        #expect(try ListDifference(from: empty, to: rows).inserts == [0, 1])
        #expect(try ListDifference(from: rows, to: empty).deletes == [0, 1])
    }

    @Test func duplicateIdentitiesAreATypedErrorNamingTheIdentity() {
        let duplicated: [Row] = [(id: "a", content: 0), (id: "wine-7", content: 0), (id: "wine-7", content: 1)]
        let plain: [Row] = [(id: "a", content: 0)]
        #expect(throws: SnapshotError.duplicateIdentifier("wine-7", inOldVersion: true)) { try ListDifference(from: duplicated, to: plain) }
        #expect(throws: SnapshotError.duplicateIdentifier("wine-7", inOldVersion: false)) { try ListDifference(from: plain, to: duplicated) }
        #expect(SnapshotError.duplicateIdentifier("wine-7", inOldVersion: false).description.contains("'wine-7'"))
    }

    /// Linear time, shown by counting steps: a few per row, however large the list, for the
    /// changes a live list sees (inserts, deletes, updates and a few moves).
    @Test func aHundredThousandRowsTakeStepsInProportion() throws {
        var random = SeededGenerator(state: 100_000)
        func steps(_ size: Int) throws -> (steps: Int, rows: Int) {
            let old: [Row] = (0..<size).map { (id: "r\($0)", content: 0) }
            var new = old.filter { _ in Int.random(in: 0..<20, using: &random) != 0 }
            for index in new.indices where Int.random(in: 0..<10, using: &random) == 0 { new[index].content = 1 }
            for _ in 0..<(size / 100) {
                let row = new.remove(at: Int.random(in: 0..<new.count, using: &random))
                new.insert(row, at: Int.random(in: 0...new.count, using: &random))
            }
            for number in 0..<(size / 20) { new.insert((id: "n\(number)", content: 0), at: Int.random(in: 0...new.count, using: &random)) }
            let difference = try ListDifference(from: old, to: new)
            #expect(Self.apply(difference, to: old, new: new).map(\.id) == new.map(\.id))
            return (difference.operations, old.count + new.count)
        }
        let small = try steps(10_000)
        let large = try steps(100_000)
        #expect(large.steps <= 4 * large.rows, "\(large.steps) steps for \(large.rows) rows")
        let perRowSmall = Double(small.steps) / Double(small.rows)
        let perRowLarge = Double(large.steps) / Double(large.rows)
        #expect(perRowLarge < perRowSmall * 1.2, "steps per row: \(perRowSmall) at 10,000 rows, \(perRowLarge) at 100,000")
    }
}

struct TableSnapshotTests {
    @Test func changesBetweenSnapshotsByIdentityAcrossSections() throws {
        var old = TableSnapshot<String>()
        try old.appendSections(["reds", "whites"])
        try old.appendItems([(id: "1", content: "Barolo"), (id: "2", content: "Rioja")], toSection: "reds")
        try old.appendItems([(id: "3", content: "Chablis")], toSection: "whites")
        var new = TableSnapshot<String>()
        try new.appendSections(["reds", "whites", "rosés"])
        try new.appendItems([(id: "2", content: "Rioja Reserva")], toSection: "reds")
        try new.appendItems([(id: "3", content: "Chablis"), (id: "1", content: "Barolo")], toSection: "whites")
        try new.appendItems([(id: "4", content: "Tavel")], toSection: "rosés")
        let changes = try new.changes(from: old)
        #expect(changes.insertedSections == [2])
        #expect(changes.deletedSections.isEmpty && changes.movedSections.isEmpty)
        #expect(changes.insertedRows == [IndexPath(row: 0, section: 2)])
        #expect(changes.deletedRows.isEmpty)
        #expect(changes.movedRows == [.init(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 1, section: 1))])
        #expect(changes.reloadedRows == [IndexPath(row: 0, section: 0)])
        #expect(try new.changes(from: new).isEmpty)
        #expect(new.numberOfItems == 4 && new.numberOfItems(inSection: 1) == 2 && new.itemIdentifiers == ["2", "3", "1", "4"])
    }

    @Test func aSnapshotRefusesDuplicatesAndUnknownSections() throws {
        var snapshot = TableSnapshot<Int>()
        try snapshot.appendItems([(id: "a", content: 1)])
        #expect(snapshot.sectionIdentifiers == [""])
        #expect(throws: SnapshotError.duplicateIdentifier("a", inOldVersion: false)) { try snapshot.appendItems([(id: "a", content: 2)]) }
        #expect(throws: SnapshotError.duplicateSection("")) { try snapshot.appendSections([""]) }
        #expect(throws: SnapshotError.unknownSection("nope")) { try snapshot.appendItems([(id: "b", content: 1)], toSection: "nope") }
    }

    @Test func explicitChangesAreStatedAsUIKitDoes() {
        let changes = SnapshotChanges(
            insertedRows: [IndexPath(row: 0, section: 0)], movedRows: [.init(from: IndexPath(row: 1, section: 0), to: IndexPath(row: 3, section: 0))])
        #expect(!changes.isEmpty)
        #expect(SnapshotChanges().isEmpty)
    }
}
