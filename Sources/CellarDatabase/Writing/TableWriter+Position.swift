/// A table's rows in the order of a position column (YAML `order: position`): SQLite's statements
/// for what ``PositionPlanner`` decides — a new row at the end, a moved row between its neighbours.
extension TableWriter {
    /// Where a moved row goes: just before one row, or just after one (the end of what was shown).
    enum MoveTarget {
        case before([DatabaseValue])
        case after([DatabaseValue])
    }

    /// Gives a new row of a table with a position column the position after the last, unless the
    /// row names one.
    func placeAtEnd(_ values: inout Values, connection: SQLiteConnection) throws {
        guard let position = list.positionColumn, !values.contains(where: { $0.column == position }) else { return }
        let positions = SQLitePositions(writer: self, column: position, movedKey: [], connection: connection)
        values.append((position, .integer(PositionPlanner.endPosition(after: try positions.highestPosition()))))
        values.sort { $0.column < $1.column }
    }

    /// Moves the row at `key`, when its version is still `expectedVersion`, to `target`, in one
    /// transaction; gives back the row as it was. `section`, for a list grouped by a column, is
    /// that column and the value of the section the row moves into, written in the same UPDATE.
    func move(
        key: [DatabaseValue], expectedVersion: String?, to target: MoveTarget, section: (column: Int, value: DatabaseValue)? = nil
    ) throws -> StoredRow {
        guard let column = list.positionColumn else { throw RowWriteError.badRequest("\(schema.name) has no position column to move rows by.") }
        return try change { connection in
            let current = try currentRow(key, expectedVersion: expectedVersion, connection: connection)
            let positions = SQLitePositions(writer: self, column: column, movedKey: key, connection: connection)
            try PositionPlanner.move(to: target, section: section, in: positions)
            return current
        }
    }
}

/// One SQLite table's position column while a row (`movedKey`) moves, in the move's transaction.
private struct SQLitePositions: RowPositions {
    let writer: TableWriter
    let column: Int
    let movedKey: [DatabaseValue]
    let connection: SQLiteConnection

    private var table: String { writer.list.quotedName }
    private var name: String { quotedIdentifier(writer.schema.columns[column].name) }
    /// Leaves the moved row out (its key bound after the statement's own values).
    private var others: String { " AND NOT (" + writer.list.keyExpressions.map { "\($0) = ?" }.joined(separator: " AND ") + ")" }

    func position(of key: [DatabaseValue]) throws -> DatabaseValue? {
        try writer.row(at: key, connection: connection)?.values[column]
    }

    func nearestPosition(below value: Int64) throws -> DatabaseValue {
        try firstValue("SELECT max(\(name)) FROM \(table) WHERE \(name) < ?" + others, [.integer(value)] + movedKey)
    }

    func nearestPosition(above value: Int64) throws -> DatabaseValue {
        try firstValue("SELECT min(\(name)) FROM \(table) WHERE \(name) > ?" + others, [.integer(value)] + movedKey)
    }

    func positions(from value: Int64) throws -> [DatabaseValue] {
        try firstColumn("SELECT DISTINCT \(name) FROM \(table) WHERE \(name) >= ?" + others + " ORDER BY 1", [.integer(value)] + movedKey)
    }

    func lowestPosition() throws -> DatabaseValue {
        try firstValue("SELECT min(\(name)) FROM \(table)", [])
    }

    /// The largest position in the table; `.null` when there is none.
    func highestPosition() throws -> DatabaseValue {
        try firstValue("SELECT max(\(name)) FROM \(table)", [])
    }

    func setPosition(_ position: Int64, section: (column: Int, value: DatabaseValue)?) throws {
        let sectionSet = section.map { ", " + quotedIdentifier(writer.schema.columns[$0.column].name) + " = ?" } ?? ""
        try run(
            "UPDATE \(table) SET \(name) = ?" + sectionSet + writer.keyCondition, [.integer(position)] + (section.map { [$0.value] } ?? []) + movedKey
        )
    }

    func stepOn(rowsAt position: Int64) throws {
        try run("UPDATE \(table) SET \(name) = \(name) + 1 WHERE \(name) = ?" + others, [.integer(position)] + movedKey)
    }

    private func run(_ sql: String, _ bindings: [DatabaseValue]) throws {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        try statement.bind(bindings)
        while try statement.step() {}
    }

    private func firstValue(_ sql: String, _ bindings: [DatabaseValue]) throws -> DatabaseValue {
        try firstColumn(sql, bindings).first ?? .null
    }

    /// The first column of each row `sql` selects.
    private func firstColumn(_ sql: String, _ bindings: [DatabaseValue]) throws -> [DatabaseValue] {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        try statement.bind(bindings)
        var values: [DatabaseValue] = []
        while try statement.step() { values.append(statement.value(0)) }
        return values
    }
}
