import MicroHTTP

/// A PostgreSQL table's rows in the order of a position column (YAML `order: position`), as
/// SQLite's are (``TableWriter``'s `+Position`): a new row goes at the end, a move writes the moved
/// row's new position and, only when its neighbours leave no whole number between them, the few
/// rows after it that must step along. PostgreSQL lets writers in side by side, so a change that
/// reads positions first takes the table's advisory lock for its transaction: two inserts never
/// pick the same last place.
extension PostgresTableWriter {
    func placeAtEnd(_ values: inout TableWriter.Values, transaction: Transaction) throws {
        guard let position = list.positionColumn, !values.contains(where: { $0.column == position }) else { return }
        try lockPositions(transaction)
        let name = quotedIdentifier(schema.columns[position].name)
        let last = try firstColumn(of: "SELECT max(\(name))::int8 FROM \(list.quotedName)", [], transaction: transaction).first
        var next: Int64 = 1
        if case .integer(let largest) = last { next = largest + 1 }
        values.append((position, .integer(next)))
        values.sort { $0.column < $1.column }
    }

    func move(
        key: [DatabaseValue], expectedVersion: String?, to target: TableWriter.MoveTarget, section: (column: Int, value: DatabaseValue)?
    ) throws -> TableWriter.StoredRow {
        guard let column = list.positionColumn else { throw RowWriteError.badRequest("\(schema.name) has no position column to move rows by.") }
        return try change { transaction in
            try lockPositions(transaction)
            let current = try currentRow(key, expectedVersion: expectedVersion, transaction: transaction)
            let name = quotedIdentifier(schema.columns[column].name)
            let others = " AND NOT (" + list.keyExpressions.map { "\($0) = ?" }.joined(separator: " AND ") + ")"
            func position(of key: [DatabaseValue]) throws -> Int64 {
                guard let row = try row(at: key, locking: false, transaction: transaction) else {
                    throw RowWriteError(.conflict, "The row it was to go beside is no longer there: nothing was moved.")
                }
                guard case .integer(let value) = row.values[column] else {
                    throw RowWriteError.constraint("The row it was to go beside has no position: nothing was moved.")
                }
                return value
            }
            func neighbour(_ comparison: String, _ aggregate: String, of value: Int64) throws -> Int64? {
                let found = try firstColumn(
                    of: "SELECT \(aggregate)(\(name))::int8 FROM \(list.quotedName) WHERE \(name) \(comparison) ?" + others,
                    [.integer(value)] + key, transaction: transaction
                ).first
                if case .integer(let found) = found { return found }
                return nil
            }
            let newPosition: Int64
            switch target {
            case .before(let other):
                let next = try position(of: other)
                if let previous = try neighbour("<", "max", of: next) {
                    newPosition =
                        next - previous >= 2
                        ? previous + (next - previous) / 2
                        : try makeRoom(at: next, name: name, others: others, key: key, transaction: transaction)
                } else {
                    newPosition = next - 1
                }
            case .after(let other):
                let previous = try position(of: other)
                if let next = try neighbour(">", "min", of: previous) {
                    newPosition =
                        next - previous >= 2
                        ? previous + (next - previous) / 2
                        : try makeRoom(at: next, name: name, others: others, key: key, transaction: transaction)
                } else {
                    newPosition = previous + 1
                }
            }
            // Into another section of a grouped list: its grouping column takes that section's value.
            let sectionSet = section.map { ", " + quotedIdentifier(schema.columns[$0.column].name) + " = ?" } ?? ""
            _ = try transaction.rows(
                "UPDATE \(list.quotedName) SET \(name) = ?" + sectionSet + keyCondition,
                [.integer(newPosition)] + (section.map { [$0.value] } ?? []) + key)
            return current
        }
    }

    /// Frees `position` by moving the run of rows at consecutive positions from it one place on,
    /// the last first (so a UNIQUE position never holds two rows). Returns `position`, now free.
    private func makeRoom(at position: Int64, name: String, others: String, key: [DatabaseValue], transaction: Transaction) throws -> Int64 {
        let taken = try firstColumn(
            of: "SELECT DISTINCT \(name)::int8 FROM \(list.quotedName) WHERE \(name) >= ?" + others + " ORDER BY 1", [.integer(position)] + key,
            transaction: transaction)
        var end = position
        for value in taken {
            guard case .integer(let value) = value, value == end else { break }
            end += 1
        }
        // The moved row leaves its place first: it may be the one the run steps into (a row moved
        // up to just before its neighbour), and a UNIQUE position never holds two rows.
        let lowest = try firstColumn(of: "SELECT min(\(name))::int8 FROM \(list.quotedName)", [], transaction: transaction).first
        if case .integer(let lowest) = lowest {
            _ = try transaction.rows("UPDATE \(list.quotedName) SET \(name) = ?" + keyCondition, [.integer(lowest - 1)] + key)
        }
        var step = end - 1
        while step >= position {
            _ = try transaction.rows("UPDATE \(list.quotedName) SET \(name) = \(name) + 1 WHERE \(name) = ?" + others, [.integer(step)] + key)
            step -= 1
        }
        return position
    }

    /// The table's advisory lock, held until the transaction ends: one position change at a time.
    private func lockPositions(_ transaction: Transaction) throws {
        _ = try transaction.rows("SELECT pg_catalog.pg_advisory_xact_lock(?::regclass::oid::int8)", [.text(list.quotedName)])
    }

    private func firstColumn(of sql: String, _ bindings: [DatabaseValue], transaction: Transaction) throws -> [DatabaseValue] {
        let result = try transaction.rows(sql, bindings)
        return (0..<result.count).map { result.value(row: $0, column: 0) }
    }
}
