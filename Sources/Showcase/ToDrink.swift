import Cellar
import TableKit

/// `/to-drink`: a cellar's "to drink" list that anyone can change in editing mode — add a bottle,
/// edit one in place, delete it (with Undo), reorder, and swipe actions ("Mark as drunk", a
/// destructive "Delete"). Kept in memory, at most ``capacity`` bottles, as it was at the
/// last restart.
public enum ToDrink {
    /// A bottle on the list.
    public struct Bottle: Codable, Sendable, Equatable, Identifiable {
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

    /// The bottles in their order, in one section: TableKit's store, which the list edits by id.
    public typealias Store = EditableItems<Bottle>

    /// The most bottles the list holds: anyone can add, so it cannot grow without end.
    public static let capacity = 200

    /// The list as it is at start-up.
    public static func makeStore(_ wines: [String] = ["Domaine Tempier Bandol 2019", "Château Musar 2017", "Vietti Barolo Castiglione 2018"])
        -> Store
    {
        let bottles = wines.enumerated().map { Bottle(id: $0.offset + 1, wine: $0.element, vintage: nil, drunk: false) }
        return Store(sections: [.init(items: bottles)], capacity: capacity)
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
    static func install(in app: App, store: Store = makeStore()) throws {
        try app.register(BottleCell.self)
        app.list(
            "/to-drink", title: "To drink", summary: "A list anyone can edit: add, edit in place, delete with Undo, reorder, swipe actions",
            paging: .unpaged, hasDetail: false
        ) { _ in ToDrinkController(snapshot: store.snapshot) }
        for action in [Action.insert, .update, .delete] {
            app.access.permissions.grant(action, on: "/to-drink", to: Permissions.anyone)
        }
    }
}

/// The bottles, in the order people put them. Delete (with Undo), insert, edit in place and
/// moves are ``EditableItemsController``'s, by the bottle's id; the swipe actions are the list's own.
struct ToDrinkController: EditableItemsController {
    let snapshot: ToDrink.Store.Snapshot

    var contentVersion: String? { "to-drink-\(snapshot.revision)" }
    func titleForFooter(inSection section: Int) -> String? { "Kept in memory until the server restarts; at most \(ToDrink.capacity) bottles." }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(for: indexPath, cell: BottleCell.self, data: item(at: indexPath))
    }

    func makeItem(id: Int, context: EditingContext) throws -> ToDrink.Bottle {
        let values = try context.decode(ToDrink.BottleValues.self)
        return ToDrink.Bottle(id: id, wine: values.wine, vintage: values.vintage, drunk: values.drunk)
    }
    func editingForm(forRowAt indexPath: IndexPath) -> (any FormController)? { ToDrink.BottleForm(bottle: item(at: indexPath)) }
    func insertForm(inSection section: Int) -> (any FormController)? { ToDrink.BottleForm() }
    func leadingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration? {
        let (store, bottle) = (snapshot.store, item(at: indexPath))
        let title = bottle.drunk ? "Mark as not drunk" : "Mark as drunk"
        return SwipeActionsConfiguration(actions: [
            ContextualAction(style: .normal, title: title, identifier: "drunk") { _ in store.update(id: bottle.id) { $0.drunk.toggle() } }
        ])
    }
    func trailingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration? {
        let (store, id) = (snapshot.store, item(at: indexPath).id)
        return SwipeActionsConfiguration(actions: [
            ContextualAction(style: .destructive, title: "Remove", identifier: "remove") { _ in store.remove(id: id) }
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
