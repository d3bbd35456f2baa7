/// How a list lays its rows out, as a collection view's list and grid layouts are two layouts of
/// one set of cells: each row in a cell of its own shape, or every row in the columns of a table.
///
/// A controller chooses with ``TableController/style``; the cells layout is the default.
///
/// ```swift
/// var style: TableStyle {
///     .columns([TableColumn("Name"), TableColumn("Price", isNumeric: true)])
/// }
/// ```
///
/// In the columns layout the list is one `<table>` whose header row names the columns; each
/// section is a `<tbody>` of `<tr>` rows (its header a first row spanning the columns, its
/// footer a row of a `<tbody>` after it), and each row's cell writes that row's `<td>` (or
/// `<th scope="row">`) elements, one per column, in order.
public enum TableStyle: Sendable, Equatable {
    /// Each row an `<li>` of its section's `<ul>`, its cell writing what the row shows.
    case cells
    /// Rows as a table under these columns; each row's cell writes one table cell per column.
    case columns([TableColumn])

    /// The columns, or nil in the cells layout.
    public var columns: [TableColumn]? {
        if case .columns(let columns) = self { return columns }
        return nil
    }
}

/// One column of a list in the columns layout: its header, how its values align, and the order
/// its header offers.
public struct TableColumn: Sendable, Equatable {
    /// Which way the list is sorted by a column.
    public enum SortOrder: String, Sendable {
        case ascending, descending
    }

    /// The header's text.
    public var title: String
    /// Whether the column holds numbers: right-aligned in tabular figures.
    public var isNumeric: Bool
    /// How the list is sorted by this column now, or nil when it is not (`aria-sort`).
    public var sortOrder: SortOrder?
    /// Where the header links to sort by the column (the next order of its cycle), or nil when
    /// the column cannot be sorted by.
    public var sortLink: String?

    public init(_ title: String, isNumeric: Bool = false, sortOrder: SortOrder? = nil, sortLink: String? = nil) {
        self.title = title
        self.isNumeric = isNumeric
        self.sortOrder = sortOrder
        self.sortLink = sortLink
    }
}
