import Cellar
import TableKit

/// `/to-drink`: a cellar's "to drink" list that anyone can change in editing mode — add a bottle,
/// edit one in place, delete it (with Undo), reorder, and swipe actions ("Mark as drunk", a
/// destructive "Delete"). Kept in memory, at most ``Store/capacity`` bottles, as it was at the
/// last restart.
public enum ToDrink {
    /// A bottle on the list.
    public struct Bottle: Codable, Sendable, Equatable {
        public var id: Int
        public var wine: String
        public var vintage: Int?
        public var drunk: Bool
    }

    /// What a bottle's form sends: each property a field of its name.
    struct BottleValues: Decodable {
        let wine: String
        let vintage: Int?
        let drunk: Bool
    }

    /// The bottles in their order, and a revision that every change moves on.
    public final class Store: Sendable {
        /// The most bottles the list holds: anyone can add, so it cannot grow without end.
        public static let capacity = 200
        private let state: Locked<(bottles: [Bottle], nextID: Int, revision: Int)>

        public init(_ wines: [String] = ["Domaine Tempier Bandol 2019", "Château Musar 2017", "Vietti Barolo Castiglione 2018"]) {
            let bottles = wines.enumerated().map { Bottle(id: $0.offset + 1, wine: $0.element, vintage: nil, drunk: false) }
            state = Locked((bottles, bottles.count + 1, 0))
        }

        public var all: [Bottle] { state.withLock { $0.bottles } }
        var snapshot: (bottles: [Bottle], revision: Int) { state.withLock { ($0.bottles, $0.revision) } }

        /// Adds a bottle at `index` (clamped), under `id` when it is free (an Undo), else a new one.
        func insert(_ values: BottleValues, at index: Int, id: Int?) throws {
            try state.withLock { state in
                guard state.bottles.count < Self.capacity else {
                    throw EditingError("The list holds at most \(Self.capacity) bottles: delete one first.")
                }
                let free = id.flatMap { id in state.bottles.contains { $0.id == id } ? nil : id }
                let bottle = Bottle(id: free ?? state.nextID, wine: values.wine, vintage: values.vintage, drunk: values.drunk)
                state.nextID = max(state.nextID, bottle.id + 1)
                state.bottles.insert(bottle, at: min(max(index, 0), state.bottles.count))
                state.revision += 1
            }
        }

        func update(_ id: Int, _ change: (inout Bottle) -> Void) {
            state.withLock { state in
                guard let index = state.bottles.firstIndex(where: { $0.id == id }) else { return }
                change(&state.bottles[index])
                state.revision += 1
            }
        }

        func remove(_ id: Int) {
            state.withLock { state in
                state.bottles.removeAll { $0.id == id }
                state.revision += 1
            }
        }

        /// Moves the bottle to `index` of the list without it, as UIKit counts a move's destination.
        func move(_ id: Int, to index: Int) {
            state.withLock { state in
                guard let from = state.bottles.firstIndex(where: { $0.id == id }) else { return }
                let bottle = state.bottles.remove(at: from)
                state.bottles.insert(bottle, at: min(max(index, 0), state.bottles.count))
                state.revision += 1
            }
        }
    }

    /// A bottle's form: in place of its row, and in the insert row.
    struct BottleForm: FormController {
        var bottle: Bottle?
        var sections: [FormSection] {
            [
                FormSection(fields: [
                    .text("wine", label: "Wine", isRequired: true, placeholder: "Château Musar 2017", value: bottle?.wine ?? "", maxLength: 120),
                    .number("vintage", label: "Vintage", minimum: 1800, maximum: 2100, value: bottle?.vintage.map(String.init) ?? ""),
                    .toggle("drunk", label: "Drunk", isOn: bottle?.drunk ?? false),
                ])
            ]
        }
    }

    /// Mounts the list on `app`, editable by anyone.
    static func install(in app: App, store: Store = Store()) throws {
        try app.register(BottleCell.self)
        app.list(
            "/to-drink", title: "To drink", summary: "A list anyone can edit: add, edit in place, delete with Undo, reorder, swipe actions",
            paging: .unpaged, hasDetail: false
        ) { _ in
            let (bottles, revision) = store.snapshot
            return ToDrinkController(store: store, bottles: bottles, revision: revision)
        }
        for action in [Action.insert, .update, .delete] {
            app.access.permissions.grant(action, on: "/to-drink", to: Permissions.anyone)
        }
    }
}

/// The bottles, in the order people put them.
struct ToDrinkController: EditableTableController {
    let store: ToDrink.Store
    let bottles: [ToDrink.Bottle]
    let revision: Int

    var contentVersion: String? { "to-drink-\(revision)" }
    func numberOfRows(inSection section: Int) -> Int { bottles.count }
    func titleForFooter(inSection section: Int) -> String? { "Kept in memory until the server restarts; at most \(ToDrink.Store.capacity) bottles." }
    func identifier(forRowAt indexPath: IndexPath) -> String { String(bottles[indexPath.row].id) }
    func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
        bottles.firstIndex { String($0.id) == identifier }.map { IndexPath(row: $0, section: 0) }
    }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(for: indexPath, cell: BottleCell.self, data: bottles[indexPath.row])
    }
    func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { bottles[indexPath.row] }

    // Editing: UIKit's calls, each changing the store by the bottle's id.
    func commit(_ editingStyle: EditingStyle, forRowAt indexPath: IndexPath, context: EditingContext) throws {
        switch editingStyle {
        case .delete: store.remove(bottles[indexPath.row].id)
        case .insert: try store.insert(try context.decode(ToDrink.BottleValues.self), at: indexPath.row, id: context.restoring.flatMap { Int($0) })
        case .none: break
        }
    }
    func editingForm(forRowAt indexPath: IndexPath) -> (any FormController)? { ToDrink.BottleForm(bottle: bottles[indexPath.row]) }
    func commitEdit(forRowAt indexPath: IndexPath, context: EditingContext) throws {
        let values = try context.decode(ToDrink.BottleValues.self)
        store.update(bottles[indexPath.row].id) { bottle in
            (bottle.wine, bottle.vintage, bottle.drunk) = (values.wine, values.vintage, values.drunk)
        }
    }
    func insertForm(inSection section: Int) -> (any FormController)? { ToDrink.BottleForm() }
    func canMoveRow(at indexPath: IndexPath) -> Bool { true }
    func moveRow(at source: IndexPath, to destination: IndexPath, context: EditingContext) throws {
        store.move(bottles[source.row].id, to: destination.row)
    }
    func leadingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration? {
        let bottle = bottles[indexPath.row]
        let title = bottle.drunk ? "Mark as not drunk" : "Mark as drunk"
        return SwipeActionsConfiguration(actions: [
            ContextualAction(style: .normal, title: title, identifier: "drunk") { [store] _ in store.update(bottle.id) { $0.drunk.toggle() } }
        ])
    }
    func trailingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration? {
        let id = bottles[indexPath.row].id
        return SwipeActionsConfiguration(actions: [
            ContextualAction(style: .destructive, title: "Remove", identifier: "remove") { [store] _ in store.remove(id) }
        ])
    }
}

/// A bottle: its wine, vintage, and whether it is drunk.
final class BottleCell: TableViewCell, ConfigurableCell {
    var bottle: ToDrink.Bottle?

    func configure(with bottle: ToDrink.Bottle) { self.bottle = bottle }
    override func prepareForReuse() { bottle = nil }

    override func render(into html: inout HTMLWriter) throws {
        guard let bottle else { return }
        html.element("span", class: "cell-title", text: bottle.wine)
        var details: [String] = []
        if let vintage = bottle.vintage { details.append(String(vintage)) }
        if bottle.drunk { details.append("drunk") }
        if !details.isEmpty {
            html.raw(" ")
            html.element("span", class: "cell-subtitle", text: details.joined(separator: " · "))
        }
    }
}
