/// Where a row goes in a table ordered by a position column (YAML `order: position`), whatever the
/// engine: a new row goes after the last; a moved row goes midway between its new neighbours and,
/// only when they leave no whole number between them, the few rows just after it step one place on.
/// Each writer answers the questions of ``RowPositions`` with its own statements, inside the move's
/// transaction; the planner decides what is written.
enum PositionPlanner {
    /// The position for a new row: one past `highest`, the table's largest position (1 in an
    /// empty table, or one whose positions are not whole numbers).
    static func endPosition(after highest: DatabaseValue) -> Int64 {
        if case .integer(let largest) = highest { return largest + 1 }
        return 1
    }

    /// Moves the row `positions` is about to `target`; `section`, for a list grouped by a column,
    /// is written with its new position. Throws when the row it was to go beside is gone (409) or
    /// has no position (422): nothing is written then.
    static func move(
        to target: TableWriter.MoveTarget, section: (column: Int, value: DatabaseValue)?, in positions: some RowPositions
    ) throws {
        let newPosition: Int64
        switch target {
        case .before(let other):
            let next = try position(of: other, in: positions)
            if case .integer(let previous) = try positions.nearestPosition(below: next) {
                newPosition = next - previous >= 2 ? previous + (next - previous) / 2 : try makeRoom(at: next, in: positions)
            } else {
                newPosition = next - 1
            }
        case .after(let other):
            let previous = try position(of: other, in: positions)
            if case .integer(let next) = try positions.nearestPosition(above: previous) {
                newPosition = next - previous >= 2 ? previous + (next - previous) / 2 : try makeRoom(at: next, in: positions)
            } else {
                newPosition = previous + 1
            }
        }
        try positions.setPosition(newPosition, section: section)
    }

    /// The position of the row at `key`, the moved row's new neighbour.
    private static func position(of key: [DatabaseValue], in positions: some RowPositions) throws -> Int64 {
        guard let value = try positions.position(of: key) else {
            throw RowWriteError(.conflict, "The row it was to go beside is no longer there: nothing was moved.")
        }
        guard case .integer(let position) = value else {
            throw RowWriteError.constraint("The row it was to go beside has no position: nothing was moved.")
        }
        return position
    }

    /// Frees `position` by moving the run of rows at consecutive positions from it one place on,
    /// the last first (so a UNIQUE position never holds two rows): as few rows as the gap after the
    /// run allows. Returns `position`, now free.
    private static func makeRoom(at position: Int64, in positions: some RowPositions) throws -> Int64 {
        var end = position
        for value in try positions.positions(from: position) {
            guard case .integer(let value) = value, value == end else { break }
            end += 1
        }
        // The moved row leaves its place first: it may be the one the run steps into (a row moved
        // up to just before its neighbour), and a UNIQUE position never holds two rows.
        if case .integer(let lowest) = try positions.lowestPosition() {
            try positions.setPosition(lowest - 1, section: nil)
        }
        var step = end - 1
        while step >= position {
            try positions.stepOn(rowsAt: step)
            step -= 1
        }
        return position
    }
}

/// What ``PositionPlanner`` asks of a table while it moves one row, inside the move's transaction:
/// each engine's writer answers with its own statements. "The other rows" are all but the moved one.
protocol RowPositions {
    /// The position of the row at `key` as stored (`.null` when it has none); nil when there is no such row.
    func position(of key: [DatabaseValue]) throws -> DatabaseValue?
    /// The largest position of the other rows below `value`; `.null` when there is none.
    func nearestPosition(below value: Int64) throws -> DatabaseValue
    /// The smallest position of the other rows above `value`; `.null` when there is none.
    func nearestPosition(above value: Int64) throws -> DatabaseValue
    /// The distinct positions of the other rows from `value` on, smallest first.
    func positions(from value: Int64) throws -> [DatabaseValue]
    /// The smallest position in the table; `.null` when there is none.
    func lowestPosition() throws -> DatabaseValue
    /// Writes the moved row's position and, when given, its section's column.
    func setPosition(_ position: Int64, section: (column: Int, value: DatabaseValue)?) throws
    /// Adds one to the position of the other rows at `position`.
    func stepOn(rowsAt position: Int64) throws
}
