/// The column whose value names a row where a foreign key links to it: a text column named like
/// a name (`name`, `title`, `label`, `full_name`…) whose values tell rows apart — at least 90%
/// distinct in the table's first 1,000 rows — and do not look like dates or numbers. A table
/// without one is labelled by its key. The configuration's `label:` wins over all of this.
///
/// Chosen when the database is mounted (and again when its schema changes), from a sample: on the
/// stocks data, the first text column was a date, and every symbol was labelled "2000-01-01".
enum LabelColumn {
    /// What a list's label is made from.
    enum Choice: Sendable {
        /// The name rule alone, without a look at the rows (a SQL query's result, which nothing links to).
        case unsampled
        /// The column the sample chose, or nil: the key labels the row.
        case sampled(Int?)
    }

    /// Names that say a column names its row, most telling first.
    static let names = ["name", "title", "label", "display_name", "full_name", "heading", "subject", "headline", "caption"]
    /// Rows read to judge the candidates.
    static let sampleSize = 1_000
    /// The share of distinct values a label needs among the sampled rows.
    static let distinctShare = 0.9

    /// The text columns whose names say they name a row, in ``names``' order, then columns whose
    /// name ends like one (`product_name`, `song_title`), in column order.
    static func candidates(of schema: TableSchema) -> [Int] {
        let lowered = schema.columns.map { $0.name.lowercased() }
        let text = schema.columns.indices.filter { schema.columns[$0].affinity == .text }
        var found: [Int] = []
        for name in names {
            found += text.filter { lowered[$0] == name && !found.contains($0) }
        }
        let suffixes = ["_name", "_title", "_label", "name", "title"]
        found += text.filter { column in !found.contains(column) && suffixes.contains { lowered[column].hasSuffix($0) } }
        return found
    }

    /// The first candidate that names rows in the table's first ``sampleSize`` rows, or nil.
    static func choose(for schema: TableSchema, in database: Database, secret: [String] = []) throws -> Int? {
        // A secret column labels nothing: its values would be in every link.
        let candidates = candidates(of: schema).filter { !secret.contains(schema.columns[$0].name) }
        guard !candidates.isEmpty else { return nil }
        // A candidate that is the key alone labels nothing the key does not.
        let usable = candidates.filter { !(schema.primaryKey == [schema.columns[$0].name]) }
        guard !usable.isEmpty else { return nil }
        let selection = usable.map { quotedIdentifier(schema.columns[$0].name) }.joined(separator: ", ")
        var rows = FetchedRows(columnCount: usable.count, expectedRows: sampleSize)
        try database.read { connection in
            try connection.appendRows(
                of: "SELECT \(selection) FROM \(quotedIdentifier(schema.name)) LIMIT ?", [.integer(Int64(sampleSize))], to: &rows)
        }
        for (position, column) in usable.enumerated() where namesRows(rows, column: position) { return column }
        return nil
    }

    /// Whether the sampled values of one column tell rows apart and read as names.
    static func namesRows(_ rows: FetchedRows, column: Int) -> Bool {
        guard rows.count > 0 else { return true }
        var distinct = Set<String>()
        var shaped = 0
        var present = 0
        for row in 0..<rows.count {
            guard let text = rows.string(row: row, column: column) else { continue }
            present += 1
            distinct.insert(text)
            if isDateOrNumberShaped(text) { shaped += 1 }
        }
        return Double(distinct.count) >= distinctShare * Double(rows.count) && shaped * 2 <= present
    }

    /// `2000-01-01`, `2000-01-01T09:30:00Z`, `12/31/1999`, `1,234.5`, `-7`, `42%`: digits and the
    /// marks dates and numbers are written with, at least half of it digits.
    static func isDateOrNumberShaped(_ text: String) -> Bool {
        var digits = 0
        var others = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: ","),
                UInt8(ascii: " "), UInt8(ascii: "T"), UInt8(ascii: "Z"), UInt8(ascii: "%"), UInt8(ascii: "e"), UInt8(ascii: "E"):
                others += 1
            default: return false
            }
        }
        return digits > 0 && digits >= others
    }
}
