import Cellar
import Showcase
import TableKit
import Testing

/// `App.validate()` renders every list once before serving, so a broken list is reported at start-up.
@Suite struct StartupValidation {
    @Test func theShowcaseValidates() throws {
        let app = App(publicDirectory: Repository.publicDirectory)
        try Showcase.install(in: app, peopleCount: 100, listbenchCount: 100, bigCount: 1_000_000)
        try app.validate()
    }

    @Test func aListWithAnUnregisteredIdentifierIsNamed() throws {
        let app = App(publicDirectory: Repository.publicDirectory)
        try app.register(ThrowingCell.self)
        app.list("/fine") { _ in FaultyController(rows: 3, failure: .none) }
        app.list("/broken") { _ in FaultyController(rows: 3, failure: .unregistered(atRow: 2)) }
        let error = try #require(throws: StartupError.self) { try app.validate() }
        guard case .listDoesNotRender(let path, let reason) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(path == "/broken")
        #expect(reason.contains("'Missing'"))
        #expect(reason.contains("Have you registered the cell?"))
        #expect(error.description.contains("/broken"))
    }

    @Test func aControllerThatThrowsIsNamed() throws {
        let app = App(publicDirectory: Repository.publicDirectory)
        app.list("/throws") { _ in throw SecretFault() }
        let error = try #require(throws: StartupError.self) { try app.validate() }
        #expect(error.description.hasPrefix("The list at /throws does not render"))
    }

    /// A `*` segment anywhere but last would trap in the router: validation reports it first.
    @Test(arguments: [("/files/*rest/more", true), ("/files/*rest", false)])
    func aRoutePatternTheRouterRefusesIsAnError(pattern: String, refused: Bool) throws {
        let app = App(publicDirectory: Repository.publicDirectory)
        app.route(.get, pattern) { _ in .text("ok") }
        if refused {
            let error = try #require(throws: StartupError.self) { try app.validate() }
            #expect(error.description == "Invalid route: '*' must be the last segment of a route pattern: \(pattern)")
        } else {
            try app.validate()
        }
        // A list mounted under a `*` segment gets its detail route after it: refused too.
        let lists = App(publicDirectory: Repository.publicDirectory)
        lists.list(pattern) { _ in FaultyController(rows: 1, failure: .none) }
        #expect(throws: StartupError.self) { try lists.validate() }
    }

    @Test func anIndexOverBrokenListsValidatesTheListsThemselves() throws {
        let app = App(publicDirectory: Repository.publicDirectory)
        app.indexList()
        app.list("/late") { _ in LateController(registerCell: false) }
        #expect(throws: StartupError.self) { try app.validate() }
        // With registerCell, the class registers itself while validating.
        let lenient = App(publicDirectory: Repository.publicDirectory)
        lenient.indexList()
        lenient.list("/late") { _ in LateController(registerCell: true) }
        try lenient.validate()
        #expect(lenient.registry.isRegistered("LateCell"))
    }
}

/// What the start-up check finds beyond the first page, and what it reports without failing.
@Suite struct StartupChecksBeyondTheFirstPage {
    @Test func aProviderThatFailsOnlyOnTheLastPageIsFound() throws {
        let app = App(publicDirectory: Repository.publicDirectory)
        try app.register(PlainTextCell.self)
        app.list("/deep", paging: .pages(defaultLimit: 10, maxLimit: 10)) { _ in FaultyController(rows: 100, failure: .unregistered(atRow: 95)) }
        let error = try #require(throws: StartupError.self) { try app.validate() }
        #expect(error.description.contains("/deep?offset=90&limit=10"))
    }

    @Test func aTemplateTagNoRowAnswersIsAWarningWithItsPlace() throws {
        let logs = LogRecorder()
        let app = App(publicDirectory: Repository.publicDirectory, logger: logs.logger)
        try app.registry.registerPrototype("Typo", template: "<span>{{name}}</span>\n<span>{{titel}}</span>", file: "prototypes/Typo.html")
        app.list("/typo") { _ in PrototypeRowsController(identifier: "Typo", rows: [["name": "a", "title": "b"]]) }
        try app.validate()
        let warning = try #require(logs.all.first { $0.level == .warning && $0.metadata["tag"] == "titel" })
        #expect(warning.metadata["file"] == "prototypes/Typo.html")
        #expect(warning.metadata["line"] == "2")
        #expect(warning.metadata["column"] == "7")
    }
}

/// One prototype for every row, filled from dictionaries.
struct PrototypeRowsController: TableController {
    let identifier: String
    let rows: [[String: String]]
    func numberOfRows(inSection section: Int) -> Int { rows.count }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(prototype: identifier, for: indexPath, data: rows[indexPath.row])
    }
}
