import TableKit
import Testing

/// The examples of TableKit.docc/GettingStarted.md and PrototypeCells.md, compiled and run,
/// so the articles cannot drift from the API. Keep the two in step.
enum GettingStarted {
    final class Person {
        let id: Int
        let name: String
        let role: String
        let years: Int

        init(id: Int, name: String, role: String, years: Int = 0) {
            self.id = id
            self.name = name
            self.role = role
            self.years = years
        }
    }

    final class EngineerCell: TableViewCell {
        var person: Person?

        override func prepareForReuse() { person = nil }

        override func render(into html: inout HTMLWriter) throws {
            guard let person else { return }
            html.element("span", class: "cell-title", text: person.name)
        }
    }

    /// "Cells name themselves": the same cell again, as an ``ItemCell``. In a namespace of its
    /// own, as the article shows it in place of the first.
    enum AsItemCell {
        final class EngineerCell: ItemCell<Person> {
            override func render(_ person: Person, into html: inout HTMLWriter) {
                html.element("span", class: "cell-title", text: person.name)
            }
        }

        static func provider(for indexPath: IndexPath, person: Person) -> DataCellProvider {
            DataCellProvider(for: indexPath) { (cell: EngineerCell) in cell.item = person }
        }
    }

    struct PeopleCells: DataCellProviding {
        let people: [Person]

        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            let person = people[indexPath.row]
            if person.role == "Engineer" {
                return DataCellProvider(for: indexPath) { (cell: EngineerCell) in cell.person = person }
            }
            return DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: person)
        }
    }

    struct PeopleController: TableController {
        let people: [Person]
        var title: String { "People" }
        func numberOfRows(inSection section: Int) -> Int { people.count }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            PeopleCells(people: people).cellProvider(forRowAt: indexPath)
        }
        func identifier(forRowAt indexPath: IndexPath) -> String { String(people[indexPath.row].id) }
        var action: ControllerAction {
            people.isEmpty ? .alert(Alert(.info, "Nobody here yet.")) : .render
        }
    }

    // "Versions".
    struct Store { var revision = 0 }

    struct StoreController: TableController {
        let store: Store
        var title: String { "Stock" }
        func numberOfRows(inSection section: Int) -> Int { 0 }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider { DataCellProvider(for: indexPath) { (_: EngineerCell) in } }
        var contentVersion: String? { "revision-\(store.revision)" }
    }

    final class ToggleCell: TableViewCell, ConfigurableCell {
        var setting: (title: String, isOn: Bool)?
        func configure(with data: (title: String, isOn: Bool)) { setting = data }
        override func prepareForReuse() { setting = nil }
        override func render(into html: inout HTMLWriter) throws {
            html.element("span", class: "cell-title", text: setting?.title ?? "")
        }
    }

    enum SettingsRow: TableRow {
        case toggle(title: String, isOn: Bool)

        func cellProvider(for indexPath: IndexPath) -> DataCellProvider {
            switch self {
            case .toggle(let title, let isOn):
                DataCellProvider(for: indexPath, cell: ToggleCell.self, data: (title, isOn))
            }
        }
    }

    struct SettingsController: SectionedTableController {
        var title: String { "Settings" }
        let sections = [
            TableSection(
                header: "Connections", footer: "Radios can be turned off in flight.",
                rows: [SettingsRow.toggle(title: "Wi-Fi", isOn: true)])
        ]
    }

    struct ProductRow: CellData {
        var name: String
        var cellIdentifier: String { ProductCell.reuseIdentifier }
    }

    final class ProductCell: TableViewCell, CellDataConfigurable {
        var product: ProductRow?
        func configure(with data: any CellData) throws { product = try expect(data, as: ProductRow.self) }
        override func prepareForReuse() { product = nil }
    }

    static let subtitleTemplate = """
        {{! A person: name as title, role as subtitle. The table writes the <li>. }}
        <a class="cell-link" href="{{href}}"><span class="cell-title">{{name}}</span>
        {{#role}}<span class="cell-subtitle">{{role}}</span>{{/role}}</a>
        """
}

extension GettingStarted.Person: PrototypeData {
    func prototypeValue(forKey key: String) -> PrototypeValue {
        switch key {
        case "name": .text(name)
        case "role": role.isEmpty ? .missing : .text(role)
        case "years": .number(years)
        default: .missing
        }
    }
}

// PrototypeCells.md, "Filling a template": the data writing its values by name and by slot. The
// prototype rows of the tests below go through them, and their expected markup holds them to
// `prototypeValue(forKey:)`.
extension GettingStarted.Person {
    func writePrototypeValue(forKey key: String, into html: inout HTMLWriter) {
        switch key {
        case "name": html.text(name)
        case "role": if !role.isEmpty { html.text(role) }
        case "years": html.text(years)
        default: break
        }
    }

    static let prototypeSlots = ["name", "role"]

    func writePrototypeValue(slot: Int, into html: inout HTMLWriter) {
        switch slot {
        case 0: html.text(name)
        case 1: if !role.isEmpty { html.text(role) }
        default: break
        }
    }
}

@Suite struct DocumentationExamplesTests {
    typealias Person = GettingStarted.Person

    @Test func thePeopleListRendersAsTheArticleSays() throws {
        #expect(GettingStarted.EngineerCell.reuseIdentifier == "EngineerCell")
        let registry = ReuseRegistry()
        try registry.register(GettingStarted.EngineerCell.self)
        try registry.register(GettingStarted.EngineerCell.self, forCellReuseIdentifier: "Lead")
        try registry.registerPrototype("SubtitleCell", template: GettingStarted.subtitleTemplate)

        let controller = GettingStarted.PeopleController(people: [
            Person(id: 42, name: "Ada", role: "Engineer"), Person(id: 7, name: "Grace", role: ""),
        ])
        #expect(controller.action == .render)
        #expect(GettingStarted.PeopleController(people: []).action == .alert(Alert(.info, "Nobody here yet.")))
        #expect(controller.contentVersion == nil, "no version unless the controller names one")
        #expect(GettingStarted.StoreController(store: .init(revision: 3)).contentVersion == "revision-3")

        var renderer = TableRenderer(controller: controller, tableView: TableView(registry: registry, selectionBase: "/people"))
        var html = HTMLWriter(capacity: 64 * 1024)
        var sent = ""
        while try !renderer.render(into: &html, pausingAt: 64 * 1024) {
            sent += html.string
            html.removeAll()
        }
        sent += html.string
        #expect(sent.contains(#"<li class="cell engineer" id="row-42"><span class="cell-title">Ada</span></li>"#))
        #expect(
            sent.contains(
                #"<li class="cell subtitle" id="row-7">"# + "\n" + #"<a class="cell-link" href="/people/7"><span class="cell-title">Grace</span>"#))
        #expect(!sent.contains("cell-subtitle"))
    }

    @Test func theItemCellVersionOfTheEngineerCellRendersTheSame() throws {
        let registry = ReuseRegistry()
        let ada = Person(id: 42, name: "Ada", role: "Engineer")
        let controller = StubController(rows: 1) { GettingStarted.AsItemCell.provider(for: $0, person: ada) }
        #expect(GettingStarted.AsItemCell.EngineerCell.reuseIdentifier == "EngineerCell")
        #expect(
            try controller.renderedHTML(registry: registry).contains(
                #"<li class="cell engineer" id="row-0-0"><span class="cell-title">Ada</span></li>"#))
    }

    /// PrototypeCells.md, "Start-up checks": the audit over the first rows of a list.
    @Test func theStartUpAuditFindsTheMisspeltTag() throws {
        func warnings(template: String) throws -> [String] {
            let registry = ReuseRegistry()
            try registry.registerPrototype("SubtitleCell", template: template)
            let controller = GettingStarted.PeopleController(people: [
                Person(id: 42, name: "Ada", role: "Engineer"), Person(id: 7, name: "Grace", role: ""),
                Person(id: 8, name: "Linus", role: "Maintainer"),
            ])
            let audit = PrototypeTagAudit(registry: registry)
            for row in 0..<min(controller.numberOfRows(inSection: 0), 20) {
                audit.record(controller.cellProvider(forRowAt: IndexPath(row: row, section: 0)))
            }
            #expect(audit.uncheckedPrototypes.isEmpty)
            return audit.warnings.map(\.description)
        }
        #expect(try warnings(template: GettingStarted.subtitleTemplate).isEmpty)
        let misspelt = GettingStarted.subtitleTemplate.replacing("{{name}}", with: "{{nmae}}")
        #expect(try warnings(template: misspelt) == ["SubtitleCell:2:63: {{nmae}} is answered by no row's data (SubtitleCell)"])
    }

    @Test func theSettingsListRendersAsTheArticleSays() throws {
        let html = try GettingStarted.SettingsController().renderedHTML(registry: ReuseRegistry())
        #expect(html.contains(#"<h2 class="section-header" id="section-0-header">Connections</h2>"#))
        #expect(html.contains(#"<li class="cell toggle" id="row-0-0"><span class="cell-title">Wi-Fi</span></li>"#))
        #expect(html.contains(#"<p class="section-footer" id="section-0-footer">Radios can be turned off in flight.</p>"#))
    }

    @Test func productRowsAreDispatchedByTheirIdentifier() throws {
        let registry = ReuseRegistry()
        try registry.register(GettingStarted.ProductCell.self)
        let items: [any CellData] = [GettingStarted.ProductRow(name: "Chair")]
        let cell = try DataCellProvider(cellData: items[0], for: IndexPath(row: 0, section: 0)).dequeueConfiguredCell(
            from: TableView(registry: registry))
        #expect((cell as? GettingStarted.ProductCell)?.product?.name == "Chair")
    }

    @Test func theSelectionSnippetWritesTheLink() throws {
        let registry = ReuseRegistry()
        final class LinkCell: TableViewCell {
            override func render(into html: inout HTMLWriter) throws {
                html.raw("<a class=\"cell-link\" href=\"")
                selection?.write(into: &html)  // escaped, the identifier percent-encoded
                html.raw("\">")
            }
        }
        var controller = StubController(rows: 1) { DataCellProvider(for: $0) { (_: LinkCell) in } }
        controller.rowIdentifier = { _ in "42" }
        #expect(try controller.renderedHTML(registry: registry, selectionBase: "/people").contains(#"<a class="cell-link" href="/people/42">"#))
    }
}
