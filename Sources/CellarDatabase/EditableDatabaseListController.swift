import Cellar
import MicroHTTP
import TableKit

/// A writable table's list (served `--writable`), as a data source in editing mode: delete with
/// Undo, edit a row in place with the schema's form (``TableForm``), insert at the end, and, for a
/// table with a position column (YAML `order: position`), move rows. Each change goes through
/// the database's ``TableWriting`` (SQLite's or PostgreSQL's) as one transaction, checked against
/// the version of the row the page showed.
///
/// A subclass rather than the read-only list's own conformance: Cellar offers editing mode to
/// the lists whose controller is editable, and a view or a read-only table must never be one.
/// Cellar checks the actor's permission (insert, update, delete) before any call here and shows
/// only the controls it allows.
class EditableDatabaseListController: DatabaseListController, EditableTableController {
    let writer: any TableWriting
    /// Tells the watchers of the database's other lists, after a write (a cascade, a label): Cellar
    /// tells this list's own once the commit returns.
    private let otherListsDidChange: @Sendable () -> Void
    /// Rows whose delete changed other rows too: no Undo is offered for them.
    private var notUndoable: Set<String> = []
    /// The foreign keys' choices, read once a request, when a form first needs them.
    private lazy var choices: [String: [(String, String)]] = (try? App.choices(for: list, lists: lists, in: database)) ?? [:]
    /// The foreign keys found by searching (into tables too long to list), looked at once a request:
    /// every row's Edit control asks for its form.
    private lazy var searched: [String: App.SearchedKey] = (try? App.searchedKeys(of: list, lists: lists, in: database)) ?? [:]

    init(
        list: TableList, lists: DatabaseLists, database: Database, context: ListContext, version: String?? = nil,
        otherListsDidChange: @escaping @Sendable () -> Void
    ) throws {
        self.writer = try database.tableWriter(for: list)
        self.otherListsDidChange = otherListsDidChange
        try super.init(list: list, lists: lists, database: database, context: context, version: version)
    }

    // MARK: Rows

    /// The row's columns' values, in the table's order.
    private func values(at indexPath: IndexPath) -> [DatabaseValue] {
        let row = flatRow(indexPath)
        return list.columns.indices.map { page.rows.databaseValue(row: row, column: $0) }
    }

    /// The row's key, read from its identifier.
    private func key(at indexPath: IndexPath) throws -> [DatabaseValue] {
        guard let key = Self.key(from: identifier(forRowAt: indexPath), of: list) else {
            throw EditingError("This row cannot be named by its key: nothing was changed.")
        }
        return key
    }

    /// A row of the fetched page: editing mode changes the rows the person saw.
    override public func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
        if context.rowIdentifier != nil { return super.indexPath(forRowWithIdentifier: identifier) }
        for section in 0..<numberOfSections {
            for row in 0..<numberOfRows(inSection: section) where self.identifier(forRowAt: IndexPath(row: row, section: section)) == identifier {
                return IndexPath(row: row, section: section)
            }
        }
        return nil
    }

    /// The same version a row page's `ETag` holds, so a change made anywhere moves it.
    public func version(forRowAt indexPath: IndexPath) -> String? {
        RowVersion.of(values(at: indexPath))
    }

    private func expectedVersion(at indexPath: IndexPath) -> String {
        RowVersion.entityTag(RowVersion.of(values(at: indexPath)))
    }

    // MARK: Editing

    public func editingForm(forRowAt indexPath: IndexPath) -> (any FormController)? {
        var texts: [String: String] = [:]
        for (column, value) in zip(list.columns, values(at: indexPath)) { texts[column.name] = App.text(of: value) }
        // "Choose…" without a script goes on in the row's own edit form, its version carried.
        let searches = try? App.choiceSearches(
            for: list, lists: lists, in: database, values: texts,
            chooseAction: ListRoute.percentEncodedPath(list.path) + "/" + Self.percentEncodedSegment(identifier(forRowAt: indexPath)) + "/-/choose",
            carried: ["_version": version(forRowAt: indexPath) ?? ""], searched: searched, naming: false)
        return TableForm(list: list, editing: true, values: texts, choices: choices, searches: searches ?? [:])
    }

    /// The insert row closes the list's last section: a new row goes at the table's end.
    public func insertForm(inSection section: Int) -> (any FormController)? {
        guard section == numberOfSections - 1 else { return nil }
        let searches = try? App.choiceSearches(
            for: list, lists: lists, in: database, values: [:], chooseAction: ListRoute.percentEncodedPath(list.path) + "/-/choose",
            searched: searched)
        return TableForm(list: list, editing: false, values: [:], choices: choices, searches: searches ?? [:])
    }

    public func commit(_ editingStyle: EditingStyle, forRowAt indexPath: IndexPath, context: EditingContext) throws {
        switch editingStyle {
        case .delete:
            let identifier = identifier(forRowAt: indexPath)
            let row = values(at: indexPath)
            let deleted = try written { try writer.delete(key: try key(at: indexPath), expectedVersion: expectedVersion(at: indexPath)) }
            // A blob is not in the form, an empty text would come back as NULL, and a secret is
            // never read: no Undo could put them back.
            let formCannotCarry =
                !list.secretColumns.isEmpty
                || row.contains { value in
                    if case .blob = value { return true }
                    return value == .text("")
                }
            if deleted.changedOtherRows || formCannotCarry { notUndoable.insert(identifier) }
        case .insert:
            if let identifier = context.restoring {
                try restore(identifier, values: context.values, at: indexPath)
            } else {
                let values = try refusals { try App.values(context.values, of: list, editing: false) }
                _ = try written { try writer.insert([values], conflict: .abort, returning: false) }
            }
        case .none:
            break
        }
    }

    /// Puts a deleted row back under its key, from its editing form's values.
    /// In a list ordered by a position column, the row goes back before the row now at
    /// `indexPath` (where it was), else at the end.
    private func restore(_ identifier: String, values: [String: String], at indexPath: IndexPath) throws {
        guard let key = Self.key(from: identifier, of: list) else { throw EditingError("This row cannot be put back.") }
        var row = try refusals { try App.values(values, of: list, editing: true) }
        for (place, column) in list.keyColumns.enumerated() where !row.contains(where: { $0.column == column }) {
            row.append((column, key[place]))
        }
        row.sort { $0.column < $1.column }
        _ = try written { try writer.insert([row], conflict: .abort, returning: false) }
        if canMoveRow(at: indexPath), indexPath.row < numberOfRows(inSection: indexPath.section) {
            let next = try self.key(at: indexPath)
            _ = try written { try writer.move(key: key, expectedVersion: nil, to: .before(next)) }
        }
    }

    public func canUndoDelete(ofRowWithIdentifier identifier: String) -> Bool {
        !notUndoable.contains(identifier)
    }

    public func commitEdit(forRowAt indexPath: IndexPath, context: EditingContext) throws {
        let values = try refusals { try App.values(context.values, of: list, editing: true) }
        _ = try written { try writer.update(key: try key(at: indexPath), values: values, expectedVersion: expectedVersion(at: indexPath)) }
    }

    // MARK: Moving

    /// Rows move where the list is in its position column's order: the table has one and the
    /// request sorts by it (as it does by default) — after the section column, in a grouped list.
    public func canMoveRow(at indexPath: IndexPath) -> Bool {
        guard let position = list.positionColumn else { return false }
        let order = query.order.dropFirst(list.sectionColumn == nil ? 0 : 1)
        guard let first = order.first else { return false }
        return first.column == position && first.ascending
    }

    /// Whether a row may move into another section, which writes the section's value into its
    /// grouping column (UIKit's model: a row dropped in another section belongs to it): not where
    /// that column is part of the key (the row would be another row) or generated.
    var movesAcrossSections: Bool {
        guard let column = list.sectionColumn else { return false }
        return !list.keyColumns.contains(column) && !list.schema.columns[column].isGenerated
    }

    /// A row whose section cannot change stays in it: dropped in another, it goes to the nearest
    /// end of its own, as a `UITableView` delegate keeps a row in its section.
    public func targetIndexPathForMove(from source: IndexPath, to proposed: IndexPath) -> IndexPath {
        guard proposed.section != source.section, !movesAcrossSections else { return proposed }
        let last = max(numberOfRows(inSection: source.section) - 1, 0)
        return IndexPath(row: proposed.section < source.section ? 0 : last, section: source.section)
    }

    /// Moves the row beside its new neighbours (`destination` counted as UIKit counts it, in the
    /// list without the row); into another section, the row takes that section's value.
    public func moveRow(at source: IndexPath, to destination: IndexPath, context: EditingContext) throws {
        var section: (column: Int, value: DatabaseValue)?
        if destination.section != source.section {
            guard let column = list.sectionColumn, movesAcrossSections, numberOfRows(inSection: destination.section) > 0 else {
                throw EditingError(
                    "This row cannot move to another section: its \(Self.sectionName(of: list)) is part of its key or made by the database.")
            }
            section = (column, values(at: IndexPath(row: 0, section: destination.section))[column])
        }
        let count = numberOfRows(inSection: destination.section)
        let others = (0..<count).filter { destination.section != source.section || $0 != source.row }
            .map { IndexPath(row: $0, section: destination.section) }
        guard !others.isEmpty else { return }
        let target: TableWriter.MoveTarget =
            destination.row < others.count
            ? .before(try key(at: others[max(destination.row, 0)])) : .after(try key(at: others[others.count - 1]))
        _ = try written {
            try writer.move(key: try key(at: source), expectedVersion: expectedVersion(at: source), to: target, section: section)
        }
    }

    private static func sectionName(of list: TableList) -> String {
        list.sectionColumn.map { list.labels[$0] } ?? "section"
    }

    // MARK: Refusals

    /// Runs a write through ``refusals(_:)``; once it committed, the database's other lists are told.
    private func written<T>(_ body: () throws -> T) throws -> T {
        let result = try refusals(body)
        otherListsDidChange()
        return result
    }

    /// Runs a write, its refusal told as editing mode tells one: in the row, on the field it
    /// concerns (422), the values kept. A row changed since the page was read is a conflict.
    private func refusals<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RowWriteError {
            if error.status.code == 412 || error.status.code == 404 {
                throw EditingError("Someone else changed or deleted this row meanwhile: nothing was changed.")
            }
            throw EditingError(error.message, field: error.column.flatMap { name in Self.formField(name, of: list) })
        } catch let error as FormValidationError {
            let (field, message) = error.messages.sorted { $0.key < $1.key }.first ?? ("", "The values do not fit this row.")
            throw EditingError(message, field: field.isEmpty ? nil : field)
        }
    }

    /// The form field a column's message goes on: the column's own, when the form shows it.
    private static func formField(_ column: String, of list: TableList) -> String? {
        let shown = Set(TableForm.columns(of: list, editing: false).map { list.columns[$0].name })
        return shown.contains(column) ? TableForm.fieldName(ofColumn: column) : nil
    }
}

/// A writable, searchable table's list: the page shows a search form.
final class SearchableEditableDatabaseListController: EditableDatabaseListController, SearchableController {
    var searchTerm: String { context.searchTerm ?? "" }
    var searchPrompt: String { "Search \(list.title)" }
}
