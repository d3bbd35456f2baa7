import MicroHTTP

/// A PostgreSQL table's rows in the order of a position column (YAML `order: position`): its
/// statements for what ``PositionPlanner`` decides, as SQLite's writer gives its own. PostgreSQL
/// lets writers in side by side, so a change that reads positions first takes the table's advisory
/// lock for its transaction: two inserts never pick the same last place.
extension PostgresTableWriter {
    func placeAtEnd(_ values: inout TableWriter.Values, transaction: Transaction) throws {
        guard let position = list.positionColumn, !values.contains(where: { $0.column == position }) else { return }
        try lockPositions(transaction)
        let positions = PostgresPositions(writer: self, column: position, movedKey: [], transaction: transaction)
        values.append((position, .integer(PositionPlanner.endPosition(after: try positions.highestPosition()))))
        values.sort { $0.column < $1.column }
    }

    func move(
        key: [DatabaseValue], expectedVersion: String?, to target: TableWriter.MoveTarget, section: (column: Int, value: DatabaseValue)?
    ) throws -> TableWriter.StoredRow {
        guard let column = list.positionColumn else { throw RowWriteError.badRequest("\(schema.name) has no position column to move rows by.") }
        return try change { transaction in
            try lockPositions(transaction)
            let current = try currentRow(key, expectedVersion: expectedVersion, transaction: transaction)
            let positions = PostgresPositions(writer: self, column: column, movedKey: key, transaction: transaction)
            try PositionPlanner.move(to: target, section: section, in: positions)
            return current
        }
    }

    /// The table's advisory lock, held until the transaction ends: one position change at a time.
    private func lockPositions(_ transaction: Transaction) throws {
        _ = try transaction.rows("SELECT pg_catalog.pg_advisory_xact_lock(?::regclass::oid::int8)", [.text(list.quotedName)])
    }
}

/// One PostgreSQL table's position column while a row (`movedKey`) moves, in the move's
/// transaction. Aggregates are read as `int8`, whatever the column's integer type.
private struct PostgresPositions: RowPositions {
    let writer: PostgresTableWriter
    let column: Int
    let movedKey: [DatabaseValue]
    let transaction: PostgresTableWriter.Transaction

    private var table: String { writer.list.quotedName }
    private var name: String { quotedIdentifier(writer.schema.columns[column].name) }
    /// Leaves the moved row out (its key bound after the statement's own values).
    private var others: String { " AND NOT (" + writer.list.keyExpressions.map { "\($0) = ?" }.joined(separator: " AND ") + ")" }

    func position(of key: [DatabaseValue]) throws -> DatabaseValue? {
        try writer.row(at: key, locking: false, transaction: transaction)?.values[column]
    }

    func nearestPosition(below value: Int64) throws -> DatabaseValue {
        try firstValue("SELECT max(\(name))::int8 FROM \(table) WHERE \(name) < ?" + others, [.integer(value)] + movedKey)
    }

    func nearestPosition(above value: Int64) throws -> DatabaseValue {
        try firstValue("SELECT min(\(name))::int8 FROM \(table) WHERE \(name) > ?" + others, [.integer(value)] + movedKey)
    }

    func positions(from value: Int64) throws -> [DatabaseValue] {
        try firstColumn("SELECT DISTINCT \(name)::int8 FROM \(table) WHERE \(name) >= ?" + others + " ORDER BY 1", [.integer(value)] + movedKey)
    }

    func lowestPosition() throws -> DatabaseValue {
        try firstValue("SELECT min(\(name))::int8 FROM \(table)", [])
    }

    /// The largest position in the table; `.null` when there is none.
    func highestPosition() throws -> DatabaseValue {
        try firstValue("SELECT max(\(name))::int8 FROM \(table)", [])
    }

    func setPosition(_ position: Int64, section: (column: Int, value: DatabaseValue)?) throws {
        // Into another section of a grouped list: its grouping column takes that section's value.
        let sectionSet = section.map { ", " + quotedIdentifier(writer.schema.columns[$0.column].name) + " = ?" } ?? ""
        _ = try transaction.rows(
            "UPDATE \(table) SET \(name) = ?" + sectionSet + writer.keyCondition, [.integer(position)] + (section.map { [$0.value] } ?? []) + movedKey
        )
    }

    func stepOn(rowsAt position: Int64) throws {
        _ = try transaction.rows("UPDATE \(table) SET \(name) = \(name) + 1 WHERE \(name) = ?" + others, [.integer(position)] + movedKey)
    }

    private func firstValue(_ sql: String, _ bindings: [DatabaseValue]) throws -> DatabaseValue {
        try firstColumn(sql, bindings).first ?? .null
    }

    private func firstColumn(_ sql: String, _ bindings: [DatabaseValue]) throws -> [DatabaseValue] {
        let result = try transaction.rows(sql, bindings)
        return (0..<result.count).map { result.value(row: $0, column: 0) }
    }
}
