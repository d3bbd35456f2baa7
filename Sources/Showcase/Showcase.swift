import Cellar
import TableKit

/// The lists Cellar ships with, mounted by `make run`.
public enum Showcase {
    /// Registers the showcase's cells and mounts its lists on `app`, in the frame of the public
    /// folder's `layout.html` when it has one.
    ///
    /// - Parameter hostilePayloads: the strings of the `/xss` list (default: ``HostileListController/payloads``).
    public static func install(
        in app: App, peopleCount: Int = 10_000, listbenchCount: Int = 100_000, bigCount: Int = 1_000_000, hostilePayloads: [String]? = nil
    ) throws {
        try app.register(EngineerCell.self)
        try app.register(ToggleCell.self)
        try app.register(LinkCell.self)
        try app.register(ProductCell.self)
        try app.register(BigRowCell.self)
        try app.registerPrototypes()

        let people = PeopleDirectory.make(count: peopleCount)
        let listbench = PeopleDirectory.listbench(count: listbenchCount)
        // Made once, not per request: the data is generated from its count at start-up.
        let peopleVersion = "generated-\(peopleCount)"
        let listbenchVersion = "listbench-\(listbenchCount)"

        app.indexList(at: "/", title: "Lists")
        app.list("/people", summary: "\(peopleCount.formatted()) people: engineers in a class cell, everyone else in a prototype cell") { _ in
            PeopleController(
                title: "People", people: people, footer: "\(peopleCount.formatted()) people", contentVersion: peopleVersion)
        }
        app.list(
            "/settings", summary: "Grouped sections built from enum rows: toggles, values and links", paging: .pages(defaultLimit: 100, maxLimit: 100)
        ) {
            _ in SettingsController()
        }
        app.list("/catalog", summary: "Wines, cheeses and notes in one list, with search", paging: .pages(defaultLimit: 100, maxLimit: 200)) {
            context in CatalogController(query: context.query["q"], listPath: context.listPath)
        }
        app.list("/reports", summary: "A list that shows a loading placeholder, then its rows") { context in ReportsController(context: context) }
        app.list("/big", title: "Big", summary: "\(bigCount.formatted()) generated rows streamed in one response", paging: .unpaged) { _ in
            BigListController(count: bigCount)
        }
        let payloads = hostilePayloads ?? HostileListController.payloads
        app.list(
            "/xss", title: "Hostile data", summary: "Script and markup payloads in every field, all shown as text",
            paging: .pages(defaultLimit: 50, maxLimit: 1000)
        ) { _ in
            HostileListController(payloads: payloads)
        }
        app.list(
            "/listbench", title: "Listbench", summary: "The benchmark workload: \(listbenchCount.formatted()) people",
            paging: .pages(defaultLimit: 100, maxLimit: 10_000)
        ) { _ in
            PeopleController(title: "Listbench", people: listbench, contentVersion: listbenchVersion)
        }
        try TastingNotes.install(in: app)
        try ToDrink.install(in: app)
        try Roles.install(in: app, people: people, contentVersion: peopleVersion)
        // `--development` only: an account to try sign-in with, its password on standard error.
        let hasDemoAccount = try app.addDemoAccount()
        CellarSensors().install(in: app)
        try SampleDatabase.install(in: app, editableBy: hasDemoAccount ? "demo" : nil)
    }
}

extension Int {
    /// `10000` → `10,000`, without Foundation's locale machinery.
    func formatted() -> String {
        var html = HTMLWriter()
        html.text(grouping: self)
        return html.string
    }
}
