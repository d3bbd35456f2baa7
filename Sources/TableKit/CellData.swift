/// A row's data that names its own cell, for lists whose rows are of many kinds.
///
/// From SwiftCleanTools' `CellDataProtocol`: a list holds `[any CellData]`, and each row is
/// dispatched by its ``cellIdentifier`` to the cell registered under it.
///
/// ```swift
/// struct ProductRow: CellData { var cellIdentifier: String { ProductCell.reuseIdentifier } … }
/// DataCellProvider(cellData: rows[indexPath.row], for: indexPath)
/// ```
public protocol CellData {
    var cellIdentifier: String { get }
}

/// A cell that takes any ``CellData`` (SwiftCleanTools' `configure(with:delegate:)`); it checks
/// the kind it got and throws ``TableKitError/typeMismatch(identifier:registered:requested:)`` otherwise.
public protocol CellDataConfigurable: TableViewCell {
    func configure(with data: any CellData) throws
}

extension CellDataConfigurable {
    /// Casts `data` to the type a cell expects, or throws a type mismatch naming both.
    public func expect<Expected>(_ data: any CellData, as expected: Expected.Type) throws -> Expected {
        guard let typed = data as? Expected else {
            throw TableKitError.typeMismatch(
                identifier: data.cellIdentifier, registered: String(reflecting: type(of: data)), requested: String(reflecting: expected))
        }
        return typed
    }
}
