import Cellar
import TableKit

/// `/roles`: the people of `/people` by role, and each role's detail a list of its own (its
/// people, paged), as selecting a row pushes a view controller on iOS.
enum Roles {
    /// Mounts `/roles` and its detail lists, `/roles/engineer` and so on, over `people`, whose
    /// version (`contentVersion`) the lists share: the people do not change while the server runs.
    static func install(in app: App, people: [Person], contentVersion: String) throws {
        try app.register(RoleCell.self)
        // Grouped once at start-up, so a detail's request filters nothing.
        let byRole = Dictionary(grouping: people, by: \.role)
        app.list(
            "/roles", title: "Roles", summary: "People by role: each role’s detail is a list of its own",
            detail: { identifier, _ in
                guard let role = Person.Role.allCases.first(where: { $0.identifier == identifier }) else { return nil }
                // One section without a title: the page's heading names the role, its pager counts them.
                return PeopleController(title: role.plural, people: byRole[role] ?? [], contentVersion: contentVersion)
            }
        ) { _ in
            RolesController(counts: Person.Role.allCases.map { ($0, byRole[$0]?.count ?? 0) }, contentVersion: contentVersion)
        }
    }
}

extension Person.Role {
    /// The role's row identifier: `/roles/engineer`.
    var identifier: String { rawValue.lowercased() }
    /// The detail list's title.
    var plural: String { rawValue + "s" }
}

/// The roles, each with how many people have it.
struct RolesController: TableController {
    let counts: [(role: Person.Role, count: Int)]
    let contentVersion: String?

    var title: String { "Roles" }
    func numberOfRows(inSection section: Int) -> Int { counts.count }
    func identifier(forRowAt indexPath: IndexPath) -> String { counts[indexPath.row].role.identifier }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let row = counts[indexPath.row]
        return DataCellProvider(for: indexPath, cell: RoleCell.self, data: RoleCell.Row(title: row.role.plural, count: row.count))
    }
    func item(forRowAt indexPath: IndexPath) -> (any Encodable)? {
        ["role": counts[indexPath.row].role.rawValue, "people": String(counts[indexPath.row].count)]
    }
}

/// A role's row: its name linking to its people, and their number.
final class RoleCell: TableViewCell, ConfigurableCell {
    struct Row: Sendable {
        var title: String
        var count: Int
    }

    var row: Row?

    func configure(with row: Row) { self.row = row }
    override func prepareForReuse() { row = nil }

    override func render(into html: inout HTMLWriter) throws {
        guard let row else { return }
        html.openSelectionLink(selection)
        html.element("span", class: "cell-title", text: row.title)
        html.raw(" ")
        html.element("span", class: "cell-subtitle", text: "\(row.count.formatted()) people")
        html.closeSelectionLink(selection)
    }
}
