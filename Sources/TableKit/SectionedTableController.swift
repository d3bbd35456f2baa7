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
    public func identifier(forSection section: Int) -> String { sections[section].identifier ?? String(section) }
    public func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        sections[indexPath.section].rows[indexPath.row].cellProvider(for: indexPath)
    }
    public func identifier(forRowAt indexPath: IndexPath) -> String {
        sections[indexPath.section].rows[indexPath.row].identifier ?? "\(indexPath.section)-\(indexPath.row)"
    }
}
