/// A table's rows in the order of a position column (YAML `order: position`): a new row goes at
/// the end, and a move writes the moved row's new position and, only when its neighbours leave
/// no whole number between them, the few rows just after it that must step along.
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
        let name = quotedIdentifier(schema.columns[position].name)
        let last = try firstColumn(of: "SELECT max(\(name)) FROM \(list.quotedName)", [], connection: connection).first
        var next: Int64 = 1
        if case .integer(let largest) = last { next = largest + 1 }
        values.append((position, .integer(next)))
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
            let name = quotedIdentifier(schema.columns[column].name)
            let others = " AND NOT (" + list.keyExpressions.map { "\($0) = ?" }.joined(separator: " AND ") + ")"
            func position(of key: [DatabaseValue]) throws -> Int64 {
                guard let row = try row(at: key, connection: connection) else {
                    throw RowWriteError(.conflict, "The row it was to go beside is no longer there: nothing was moved.")
                }
                guard case .integer(let value) = row.values[column] else {
                    throw RowWriteError.constraint("The row it was to go beside has no position: nothing was moved.")
                }
                return value
            }
            /// The neighbour's position on the far side, in the table as a whole (the row moved left out).
            func neighbour(_ comparison: String, _ aggregate: String, of value: Int64) throws -> Int64? {
                let found = try firstColumn(
                    of: "SELECT \(aggregate)(\(name)) FROM \(list.quotedName) WHERE \(name) \(comparison) ?" + others, [.integer(value)] + key,
                    connection: connection
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
                        ? previous + (next - previous) / 2 : try makeRoom(at: next, name: name, others: others, key: key, connection: connection)
                } else {
                    newPosition = next - 1
                }
            case .after(let other):
                let previous = try position(of: other)
                if let next = try neighbour(">", "min", of: previous) {
                    newPosition =
                        next - previous >= 2
                        ? previous + (next - previous) / 2 : try makeRoom(at: next, name: name, others: others, key: key, connection: connection)
                } else {
                    newPosition = previous + 1
                }
            }
            let sectionSet = section.map { ", " + quotedIdentifier(schema.columns[$0.column].name) + " = ?" } ?? ""
            let update = try connection.statement("UPDATE \(list.quotedName) SET \(name) = ?" + sectionSet + keyCondition)
            try update.bind([.integer(newPosition)] + (section.map { [$0.value] } ?? []) + key)
            while try update.step() {}
            update.reset()
            return current
        }
    }

    /// Frees `position` by moving the run of rows at consecutive positions from it one place on,
    /// the last first (so a UNIQUE position never holds two rows): as few rows as the gap after the
    /// run allows. Returns `position`, now free.
    private func makeRoom(at position: Int64, name: String, others: String, key: [DatabaseValue], connection: SQLiteConnection) throws -> Int64 {
        let taken = try firstColumn(
            of: "SELECT DISTINCT \(name) FROM \(list.quotedName) WHERE \(name) >= ?" + others + " ORDER BY 1", [.integer(position)] + key,
            connection: connection)
        var end = position
        for value in taken {
            guard case .integer(let value) = value, value == end else { break }
            end += 1
        }
        // The moved row leaves its place first: it may be the one the run steps into (a row moved
        // up to just before its neighbour), and a UNIQUE position never holds two rows.
        let lowest = try firstColumn(of: "SELECT min(\(name)) FROM \(list.quotedName)", [], connection: connection).first
        if case .integer(let lowest) = lowest {
            let park = try connection.statement("UPDATE \(list.quotedName) SET \(name) = ?" + keyCondition)
            try park.bind([.integer(lowest - 1)] + key)
            while try park.step() {}
            park.reset()
        }
        var step = end - 1
        while step >= position {
            let shift = try connection.statement("UPDATE \(list.quotedName) SET \(name) = \(name) + 1 WHERE \(name) = ?" + others)
            try shift.bind([.integer(step)] + key)
            while try shift.step() {}
            shift.reset()
            step -= 1
        }
        return position
    }

    /// The first column of each row `sql` selects.
    private func firstColumn(of sql: String, _ bindings: [DatabaseValue], connection: SQLiteConnection) throws -> [DatabaseValue] {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        try statement.bind(bindings)
        var values: [DatabaseValue] = []
        while try statement.step() { values.append(statement.value(0)) }
        return values
    }
}
