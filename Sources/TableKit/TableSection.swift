/// A row that knows its own cell, as SGTableViewHelper's `SGTableViewHelperRow`: an enum
/// whose cases carry the row's data as associated values.
///
/// ```swift
/// enum SettingsRow: TableRow {
///     case toggle(title: String, isOn: Bool)
///     case value(title: String, detail: String)
///     func cellProvider(for indexPath: IndexPath) -> DataCellProvider {
///         switch self {
///         case .toggle(let title, let isOn):
///             DataCellProvider(for: indexPath, cell: ToggleCell.self, data: (title, isOn))
///         case .value(let title, let detail):
///             DataCellProvider(for: indexPath, cell: ValueCell.self, data: (title, detail))
///         }
///     }
/// }
/// ```
public protocol TableRow {
    func cellProvider(for indexPath: IndexPath) -> DataCellProvider
    /// The row's stable identifier (defaults to its position).
    var identifier: String? { get }
}

extension TableRow {
    public var identifier: String? { nil }
}

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

/// A controller over fixed sections of ``TableRow`` values: the whole list is data.
public protocol SectionedTableController: TableController {
    associatedtype Row: TableRow
    var sections: [TableSection<Row>] { get }
}

extension SectionedTableController {
    public var numberOfSections: Int { sections.count }
    public func numberOfRows(inSection section: Int) -> Int { sections[section].rows.count }
    public func titleForHeader(inSection section: Int) -> String? { sections[section].header }
    public func titleForFooter(inSection section: Int) -> String? { sections[section].footer }
    public func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        sections[indexPath.section].rows[indexPath.row].cellProvider(for: indexPath)
    }
    public func identifier(forRowAt indexPath: IndexPath) -> String {
        sections[indexPath.section].rows[indexPath.row].identifier ?? "\(indexPath.section)-\(indexPath.row)"
    }
}

extension TableSection: Sendable where Row: Sendable {}
