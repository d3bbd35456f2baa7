import Testing

@testable import CellarDatabase

/// ``PositionPlanner`` over a table held in memory (``MemoryPositions``), whose answers are the
/// ones an engine's statements give: where a moved row lands, which rows step along, that a
/// UNIQUE position never holds two rows on the way, and the errors for a neighbour gone or
/// without a position.
@Suite struct PositionPlannerTests {
    @Test func aRowMovedBeforeTheFirstGoesOneBelowIt() throws {
        let table = MemoryPositions([1: 10, 2: 20, 3: 30], moving: 3)
        try PositionPlanner.move(to: .before([.integer(1)]), section: nil, in: table)
        #expect(table.order == [3, 1, 2])
        #expect(table.positions[3] == .integer(9))
        #expect(table.writes == 1)
    }

    @Test func aRowMovedAfterTheLastGoesOneAboveIt() throws {
        let table = MemoryPositions([1: 10, 2: 20, 3: 30], moving: 1)
        try PositionPlanner.move(to: .after([.integer(3)]), section: nil, in: table)
        #expect(table.order == [2, 3, 1])
        #expect(table.positions[1] == .integer(31))
        #expect(table.writes == 1)
    }

    @Test func aRowMovedBetweenNeighboursWithRoomGoesMidwayAndNothingElseIsWritten() throws {
        let table = MemoryPositions([1: 10, 2: 20, 3: 30, 4: 40], moving: 1)
        try PositionPlanner.move(to: .before([.integer(4)]), section: nil, in: table)
        #expect(table.order == [2, 3, 1, 4])
        #expect(table.positions[1] == .integer(35))
        #expect(table.writes == 1)
    }

    @Test func adjacentNeighboursUnderAUniquePositionMakeRoomWithoutTwoRowsOnOnePlace() throws {
        let table = MemoryPositions([1: 1, 2: 2, 3: 3, 4: 4, 5: 5], moving: 5, unique: true)
        try PositionPlanner.move(to: .before([.integer(2)]), section: nil, in: table)
        #expect(table.order == [1, 5, 2, 3, 4])
        #expect(table.positions == [1: .integer(1), 5: .integer(2), 2: .integer(3), 3: .integer(4), 4: .integer(5)])
    }

    @Test func onlyTheRunUpToTheFirstGapStepsAlong() throws {
        let table = MemoryPositions([1: 1, 2: 2, 3: 3, 4: 10, 5: 20], moving: 5, unique: true)
        try PositionPlanner.move(to: .after([.integer(1)]), section: nil, in: table)
        #expect(table.order == [1, 5, 2, 3, 4])
        // The moved row parked, rows 3 and 2 stepped on, the moved row placed: row 4 untouched.
        #expect(table.writes == 4)
        #expect(table.positions[4] == .integer(10))
    }

    @Test func aRowMovedNextToItselfStaysWhereItIs() throws {
        for target in [TableWriter.MoveTarget.before([.integer(2)]), .after([.integer(2)]), .before([.integer(3)]), .after([.integer(1)])] {
            let table = MemoryPositions([1: 1, 2: 2, 3: 3], moving: 2, unique: true)
            try PositionPlanner.move(to: target, section: nil, in: table)
            #expect(table.order == [1, 2, 3], "\(target)")
        }
    }

    @Test func theSectionIsWrittenWithThePosition() throws {
        let table = MemoryPositions([1: 10, 2: 20], moving: 2)
        try PositionPlanner.move(to: .before([.integer(1)]), section: (column: 4, value: .text("Later")), in: table)
        #expect(table.sections[2] == .text("Later"))
        #expect(table.sections[1] == nil)
    }

    @Test func aNeighbourGoneIsAConflictAndNothingIsWritten() throws {
        let table = MemoryPositions([1: 10, 2: 20], moving: 2)
        let error = #expect(throws: RowWriteError.self) { try PositionPlanner.move(to: .before([.integer(7)]), section: nil, in: table) }
        #expect(error?.status.code == 409)
        #expect(table.writes == 0)
    }

    @Test func aNeighbourWithoutAPositionIsRefusedAndNothingIsWritten() throws {
        let table = MemoryPositions([1: 10, 2: 20], moving: 2)
        table.positions[1] = .null
        let error = #expect(throws: RowWriteError.self) { try PositionPlanner.move(to: .after([.integer(1)]), section: nil, in: table) }
        #expect(error?.status.code == 422)
        #expect(table.writes == 0)
    }

    @Test func aNewRowGoesAfterTheLargestPosition() {
        #expect(PositionPlanner.endPosition(after: .integer(41)) == 42)
        #expect(PositionPlanner.endPosition(after: .null) == 1)
        #expect(PositionPlanner.endPosition(after: .real(2.5)) == 1)
    }
}

/// A table of integer keys and positions in memory, answering as a writer's statements do while
/// the row `moving` moves; with `unique`, a write that would put two rows on one position throws.
private final class MemoryPositions: RowPositions {
    var positions: [Int64: DatabaseValue]
    var sections: [Int64: DatabaseValue] = [:]
    let moving: Int64
    let unique: Bool
    private(set) var writes = 0

    struct Collision: Error {}

    init(_ positions: [Int64: Int64], moving: Int64, unique: Bool = false) {
        self.positions = positions.mapValues { .integer($0) }
        self.moving = moving
        self.unique = unique
    }

    /// The keys by position.
    var order: [Int64] {
        positions.compactMap { key, value in
            if case .integer(let position) = value { return (key, position) }
            return nil
        }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    private var others: [Int64] {
        positions.compactMap { key, value in
            guard key != moving, case .integer(let position) = value else { return nil }
            return position
        }
    }

    func position(of key: [DatabaseValue]) throws -> DatabaseValue? {
        guard case .integer(let key) = key.first else { return nil }
        return positions[key]
    }

    func nearestPosition(below value: Int64) throws -> DatabaseValue {
        others.filter { $0 < value }.max().map(DatabaseValue.integer) ?? .null
    }

    func nearestPosition(above value: Int64) throws -> DatabaseValue {
        others.filter { $0 > value }.min().map(DatabaseValue.integer) ?? .null
    }

    func positions(from value: Int64) throws -> [DatabaseValue] {
        Set(others.filter { $0 >= value }).sorted().map(DatabaseValue.integer)
    }

    func lowestPosition() throws -> DatabaseValue {
        (others
            + [positions[moving]].compactMap { value in
                if case .integer(let position) = value { return position }
                return nil
            }).min().map(DatabaseValue.integer) ?? .null
    }

    func setPosition(_ position: Int64, section: (column: Int, value: DatabaseValue)?) throws {
        try write(moving, position)
        if let section { sections[moving] = section.value }
    }

    func stepOn(rowsAt position: Int64) throws {
        for (key, value) in positions where key != moving && value == .integer(position) { try write(key, position + 1) }
    }

    private func write(_ key: Int64, _ position: Int64) throws {
        if unique, positions.contains(where: { $0.key != key && $0.value == .integer(position) }) { throw Collision() }
        positions[key] = .integer(position)
        writes += 1
    }
}
