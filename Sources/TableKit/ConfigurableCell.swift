/// A cell configured from one typed value, as SGTableViewHelper's `SGConfigurableCell`.
///
/// ```swift
/// final class ToggleCell: TableViewCell, ConfigurableCell {
///     var setting: (title: String, isOn: Bool)?
///     func configure(with data: (title: String, isOn: Bool)) { setting = data }
/// }
/// ```
public protocol ConfigurableCell: TableViewCell {
    associatedtype CellData
    func configure(with data: CellData) throws
}
