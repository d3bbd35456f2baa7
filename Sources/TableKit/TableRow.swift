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
