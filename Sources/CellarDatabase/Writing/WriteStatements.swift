import ByteWriters

/// The SQL text of a table's writes, made once per shape (an insert's columns, conflict and
/// `RETURNING`; an update's columns) and kept with its ``TableList``: a write looks its text up
/// rather than joining quoted names on every request. A list made again after a migration starts
/// with none.
final class WriteStatements: Sendable {
    /// What a write's SQL text depends on besides the table.
    enum Shape: Hashable, Sendable {
        case insert(columns: [Int], conflict: TableWriter.Conflict, returning: Bool)
        case update(columns: [Int])
    }

    /// Past this many shapes (a client may name any set of columns) the texts are made again.
    private static let limit = 64
    private let texts = Locked<[Shape: String]>([:])

    /// The text of `shape`, made by `make` the first time.
    func sql(_ shape: Shape, make: () -> String) -> String {
        if let text = texts.withLock({ $0[shape] }) { return text }
        let text = make()
        texts.withLock { texts in
            if texts.count >= Self.limit { texts.removeAll(keepingCapacity: true) }
            texts[shape] = text
        }
        return text
    }
}
