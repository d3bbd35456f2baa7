/// A section of rows with an optional header and footer (`SGTableViewHelperSection`).
public struct TableSection<Row> {
    /// The section's identity (``TableController/identifier(forSection:)``); nil: its number.
    public var identifier: String?
    public var header: String?
    public var footer: String?
    public var rows: [Row]

    public init(identifier: String? = nil, header: String? = nil, footer: String? = nil, rows: [Row]) {
        self.identifier = identifier
        self.header = header
        self.footer = footer
        self.rows = rows
    }
}

extension TableSection: Sendable where Row: Sendable {}
