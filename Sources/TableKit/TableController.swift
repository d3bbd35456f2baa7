/// A list, the way a `UITableViewController` describes one: sections, rows, headers, footers,
/// and a cell provider per row.
///
/// A controller is made per request (with that request's query and paging), so it can be a
/// plain struct over shared data. Everything but ``numberOfRows(inSection:)`` and
/// ``DataCellProviding/cellProvider(forRowAt:)`` has a default.
///
/// ```swift
/// struct PeopleController: TableController {
///     let people: [Person]
///     var title: String { "People" }
///     func numberOfRows(inSection section: Int) -> Int { people.count }
///     func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
///         let person = people[indexPath.row]
///         if person.role == .engineer {
///             return DataCellProvider(for: indexPath) { (cell: EngineerCell) in cell.person = person }
///         }
///         return DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: person)
///     }
/// }
/// ```
public protocol TableController: DataCellProviding {
    /// The list's title, when its route was mounted without one; empty by default.
    ///
    /// A list has one title, shown in navigation, the page's `<title>` and `<h1>`, the JSON and
    /// the details' back link. Cellar takes it from where the list is mounted
    /// (`app.list("/people", title: "People")`); a controller's title is used only for a list
    /// mounted without one, and a different one is reported at start-up.
    var title: String { get }
    /// The number of sections; 1 unless overridden.
    var numberOfSections: Int { get }
    func numberOfRows(inSection section: Int) -> Int
    /// The header of a section, or nil for none (`titleForHeaderInSection`).
    func titleForHeader(inSection section: Int) -> String?
    /// The footer of a section, or nil for none (`titleForFooterInSection`).
    func titleForFooter(inSection section: Int) -> String?
    /// A section's stable identifier, `String(section)` by default, as
    /// `NSDiffableDataSourceSnapshot` names its sections: the page's `data-section` and the ids
    /// of its header, rows and footer (`section-{identifier}-rows`, the identifier
    /// percent-encoded as a row's is), its JSON `id`, and what a live list keys the section by.
    ///
    /// Override it when a section's number does not say which section it is from one request to
    /// the next: a list whose pages each number their sections from 0 (grouped rows, paged) gives
    /// each the value it groups by, so that "Load more" adds a page's rows to the section the page
    /// already shows, and a live list does not take one group for another. Two sections of one
    /// list never share an identifier.
    func identifier(forSection section: Int) -> String
    /// A row's stable identifier: its DOM id, its JSON `id` and its detail route.
    func identifier(forRowAt indexPath: IndexPath) -> String
    /// The row with a given identifier, for selection; nil when there is none.
    func indexPath(forRowWithIdentifier identifier: String) -> IndexPath?
    /// What selecting a row shows: its detail. Nil when the row has no detail.
    func detail(forRowAt indexPath: IndexPath) -> RowDetail?
    /// The row's data for the JSON twin of the list.
    func item(forRowAt indexPath: IndexPath) -> (any Encodable)?
    /// What the list does when asked for: render, or show a banner, redirect, or load later.
    var action: ControllerAction { get }
    /// A version of everything the list shows, or nil (the default) when there is none.
    ///
    /// Equal versions promise the same sections, rows, headers, footers and action for the same
    /// request. A list over data fixed at start-up can return a constant; one over a store, the
    /// store's revision. With a version, Cellar derives the page's `ETag` from it, the URL and the
    /// format before rendering: a matching `If-None-Match` is answered 304 without writing a row,
    /// and streamed pages carry the validator too. Without one, it hashes each buffered page.
    var contentVersion: String? { get }
    /// How the rows are laid out: each in a cell of its own shape (``TableStyle/cells``, the
    /// default), or as a table of columns whose header this names (``TableStyle/columns(_:)``).
    /// In the columns layout each row's cell writes one table cell per column.
    var style: TableStyle { get }
    /// Writes what the page shows above the rows, as a table view's `tableHeaderView`: for a
    /// database list, its filters, sort and formats. Nothing by default. Only the full page has
    /// it: the rows fragment and the JSON do not.
    func renderTableHeader(into html: inout HTMLWriter)
    /// Writes the part of the table header that follows the rows — counts, such as a database
    /// list's facets — again, alone: one element whose `id` is ``liveHeaderElementID``, as the
    /// table header writes it too. A watched list's page has it replaced when it changes (at most
    /// every 2 s). Nothing by default: the header is not patched live.
    func renderLiveHeader(into html: inout HTMLWriter)
}

/// The `id` of the element ``TableController/renderLiveHeader(into:)`` writes, which live
/// patches replace.
public let liveHeaderElementID: StaticString = "list-live-header"

extension TableController {
    public var title: String { "" }
    public var numberOfSections: Int { 1 }
    public func titleForHeader(inSection section: Int) -> String? { nil }
    public func titleForFooter(inSection section: Int) -> String? { nil }
    public func identifier(forSection section: Int) -> String { String(section) }
    public func identifier(forRowAt indexPath: IndexPath) -> String {
        numberOfSections == 1 ? String(indexPath.row) : "\(indexPath.section)-\(indexPath.row)"
    }
    public func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
        // The default walks every row; controllers over large data override it with a lookup.
        for section in 0..<numberOfSections {
            for row in 0..<numberOfRows(inSection: section) {
                let indexPath = IndexPath(row: row, section: section)
                if self.identifier(forRowAt: indexPath) == identifier { return indexPath }
            }
        }
        return nil
    }
    public func detail(forRowAt indexPath: IndexPath) -> RowDetail? { nil }
    public func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { nil }
    public var action: ControllerAction { .render }
    public var contentVersion: String? { nil }
    public var style: TableStyle { .cells }
    public func renderTableHeader(into html: inout HTMLWriter) {}
    public func renderLiveHeader(into html: inout HTMLWriter) {}

    /// The number of rows in every section together.
    public var totalNumberOfRows: Int {
        (0..<numberOfSections).reduce(0) { $0 + numberOfRows(inSection: $1) }
    }

    /// The index path of the `index`-th row counting across sections, or nil past the end.
    public func indexPath(atFlatIndex index: Int) -> IndexPath? {
        guard index >= 0 else { return nil }
        var remaining = index
        for section in 0..<numberOfSections {
            let rows = numberOfRows(inSection: section)
            if remaining < rows { return IndexPath(row: remaining, section: section) }
            remaining -= rows
        }
        return nil
    }
}
