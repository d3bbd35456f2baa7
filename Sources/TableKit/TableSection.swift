/// A section of rows with an optional header and footer (`SGTableViewHelperSection`).
public struct TableSection<Row> {
    public var header: String?
    public var footer: String?
    public var rows: [Row]

    public init(header: String? = nil, footer: String? = nil, rows: [Row]) {
        self.header = header
        self.footer = footer
        self.rows = rows
    }
}

extension TableSection: Sendable where Row: Sendable {}
