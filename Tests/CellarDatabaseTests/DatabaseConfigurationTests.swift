import Cellar
import CellarDatabase
import Foundation
import MicroHTTP
import TableKit
import Testing

/// The YAML configuration: what it sets, and how a mistake in it is reported.
struct DatabaseConfigurationTests {
    static let shop = """
        CREATE TABLE makers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE tools (id INTEGER PRIMARY KEY, name TEXT, maker_id INTEGER REFERENCES makers(id), kind TEXT, price REAL);
        INSERT INTO makers VALUES (1, 'Acme'), (2, 'Zenith');
        INSERT INTO tools VALUES (1, 'Hammer', 1, 'hand', 12.5), (2, 'Drill', 2, 'power', 80), (3, 'Saw', 1, 'hand', NULL),
            (4, 'Sander', 2, 'power', 55);
        """

    /// The body of `target` as the app's router answers it.
    static func body(_ app: App, _ target: String) throws -> (status: HTTPStatus, text: String) {
        try app.validate()
        let response = try app.makeRouter().respond(to: Request(target: target))
        guard let bytes = response.body.bufferedBytes else { return (response.status, "") }
        return (response.status, String(decoding: bytes, as: UTF8.self))
    }

    static func app() -> App {
        App(publicDirectory: "/nonexistent-public")
    }

    @Test func everySettingReachesThePage() throws {
        let file = try TemporaryDatabase(Self.shop)
        let configuration = try DatabaseConfiguration(
            yaml: """
                tables:
                  tools:
                    title: Tools
                    description: Everything in the shed
                    columns: [name, maker_id, price]
                    labels: {maker_id: Maker}
                    sort: [-price]
                    page_size: 3
                    sections: kind
                """, file: "shop.yaml")
        let app = Self.app()
        try app.mount(Database(path: file.path), configuration: configuration)
        let page = try Self.body(app, "/tools")
        #expect(page.status == .ok)
        #expect(page.text.contains("<h1>Tools</h1>"))
        #expect(page.text.contains(">Maker</a></th>"), "the label replaces the column's name")
        #expect(page.text.contains(">Acme</a>") || page.text.contains(">Zenith</a>"), "a foreign key shows its row's label")
        #expect(!page.text.contains(">kind</a></th>"), "only the configured columns are shown")
        // Sections by kind (hand before power), each by price descending, NULL last; three rows a page.
        let json = try Self.body(app, "/tools.json")
        let decoded = try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any]
        let sections = try #require(decoded?["sections"] as? [[String: Any]])
        #expect(sections.map { $0["header"] as? String } == ["hand", "power"])
        #expect(sections.map { $0["footer"] as? String } == ["2 rows", "2 rows"])
        let ids = sections.flatMap { ($0["rows"] as? [[String: Any]] ?? []).map { $0["id"] as? String } }
        #expect(ids == ["1", "3", "2"])
    }

    @Test func anUnknownKeyIsNamedWithItsLineAndColumn() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try DatabaseConfiguration(yaml: "tables:\n  tools:\n    colour: red\n", file: "shop.yaml")
        }
        #expect(error.line == 3)
        #expect(error.column == 5)
        #expect(error.key == "tables.tools.colour")
        #expect(error.description.hasPrefix("shop.yaml:3:5: tables.tools.colour: unknown key"))
    }

    @Test func yamlThatDoesNotParseIsNamedWithItsLine() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try DatabaseConfiguration(yaml: "tables:\n  tools: [\n", file: "shop.yaml")
        }
        #expect(error.line != nil)
        #expect(error.description.contains("not valid YAML"))
    }

    @Test func aValueOfTheWrongKindIsAnError() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try DatabaseConfiguration(yaml: "tables:\n  tools:\n    page_size: many\n", file: "shop.yaml")
        }
        #expect(error.key == "tables.tools.page_size")
        #expect(error.line == 3)
    }

    @Test(arguments: [
        ("tables:\n  nothing:\n    title: X\n", "tables.nothing", "no table or view"),
        ("tables:\n  tools:\n    sort: [-weight]\n", "tables.tools.sort", "no column “weight”"),
        ("tables:\n  tools:\n    columns: [name, colour]\n", "tables.tools.columns", "no column “colour”"),
        ("tables:\n  tools:\n    sections: colour\n", "tables.tools.sections", "no column “colour”"),
        ("tables:\n  tools:\n    cells: {column: kind, when: {hand: HandCell}}\n", "tables.tools.cells", "no cell is registered as “HandCell”"),
        ("tables:\n  tools:\n    search: {index: tools_fts}\n", "tables.tools.search.index", "no FTS5 table “tools_fts” indexes tools"),
        ("tables:\n  tools:\n    search: {column: name}\n", "tables.tools.search.column", "column applies to PostgreSQL"),
        ("tables:\n  tools:\n    search: {configuration: english}\n", "tables.tools.search.configuration", "configuration applies to PostgreSQL"),
    ])
    func whatTheDatabaseDoesNotHaveStopsTheMount(yaml: String, key: String, message: String) throws {
        let file = try TemporaryDatabase(Self.shop)
        let configuration = try DatabaseConfiguration(yaml: yaml, file: "shop.yaml")
        let error = try #require(throws: ConfigurationError.self) {
            try Self.app().mount(Database(path: file.path), configuration: configuration)
        }
        #expect(error.key == key)
        #expect(error.line != nil, "the message says where: \(error)")
        #expect(error.description.contains(message), "\(error)")
    }

    /// `search: false` takes the search box away; `search: {index: …}` must name the FTS5 table there is.
    @Test func searchIsTurnedOffOrNamed() throws {
        let file = try TemporaryDatabase(
            """
            CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);
            CREATE VIRTUAL TABLE notes_fts USING fts5(body, content='notes', content_rowid='id');
            INSERT INTO notes VALUES (1, 'cellar door'), (2, 'wine');
            INSERT INTO notes_fts(notes_fts) VALUES ('rebuild');
            """)
        let off = Self.app()
        try off.mount(Database(path: file.path), configuration: DatabaseConfiguration(yaml: "tables:\n  notes:\n    search: false\n", file: "n.yaml"))
        #expect(throws: HTTPError.self) { try Self.body(off, "/notes.json?q=cellar") }
        #expect(try !Self.body(off, "/notes").text.contains("<form class=\"search\""))
        let named = Self.app()
        try named.mount(
            Database(path: file.path),
            configuration: DatabaseConfiguration(yaml: "tables:\n  notes:\n    search: {index: notes_fts}\n", file: "n.yaml"))
        #expect(try Self.body(named, "/notes.json?q=cellar").text.contains("cellar door"))
        #expect(try !Self.body(named, "/notes.json?q=cellar").text.contains("\"wine\""))
        let error = try #require(throws: ConfigurationError.self) {
            try Self.app().mount(
                Database(path: file.path),
                configuration: DatabaseConfiguration(yaml: "tables:\n  notes:\n    search: {index: other}\n", file: "n.yaml"))
        }
        #expect(error.description.contains("the FTS5 table that indexes notes is “notes_fts”, not “other”"), "\(error)")
    }

    @Test func aConfigurationBesideTheDatabaseIsFound() throws {
        let file = try TemporaryDatabase(Self.shop, name: "shop.db")
        try "tables:\n  tools:\n    title: The shed\n".write(toFile: file.file("shop.yaml"), atomically: true, encoding: .utf8)
        let configuration = try DatabaseConfiguration.load(named: nil, besideDatabase: file.path)
        #expect(configuration.tables["tools"]?.title == "The shed")
        #expect(try DatabaseConfiguration.load(named: nil, besideDatabase: file.file("other.db")).tables.isEmpty)
        #expect(throws: ConfigurationError.self) { try DatabaseConfiguration.load(named: file.file("missing.yaml"), besideDatabase: file.path) }
    }

    @Test func cellRulesChooseAPrototypeByAColumnsValue() throws {
        let file = try TemporaryDatabase(Self.shop)
        let templates = file.file("templates")
        try FileManager.default.createDirectory(atPath: templates, withIntermediateDirectories: true)
        try "<span class=\"power\">{{name}} ({{price}})</span>".write(toFile: templates + "/PowerToolCell.html", atomically: true, encoding: .utf8)
        let app = Self.app()
        try app.registry.registerPrototypes(in: templates)
        let configuration = try DatabaseConfiguration(
            yaml: "tables:\n  tools:\n    cells: {column: kind, when: {power: PowerToolCell}}\n", file: "shop.yaml")
        try app.mount(Database(path: file.path), configuration: configuration)
        let page = try Self.body(app, "/tools")
        #expect(page.text.contains("<span class=\"power\">Drill (80.0)</span>"))
        #expect(page.text.contains("Hammer</span></a><dl class=\"fields\">"), "other rows keep the generic cell")
        let json = try Self.body(app, "/tools.json?kind=power").text
        #expect(json.contains("\"cell\":\"PowerToolCell\""))
        #expect(!json.contains("DatabaseRowCell"))
    }

    final class ToolCell: TableViewCell, ConfigurableCell {
        var name = ""
        func configure(with data: String) { name = data }
        override func render(into html: inout HTMLWriter) throws {
            html.raw("<b class=\"tool\">")
            html.text(name)
            html.raw("</b>")
        }
    }

    @Test func anAppMountsOneTableWithItsOwnCells() throws {
        let file = try TemporaryDatabase(Self.shop)
        let app = Self.app()
        try app.register(ToolCell.self)
        try app.mount(Database(path: file.path), table: "tools", at: "/shed", title: "Shed") { row, indexPath in
            DataCellProvider(for: indexPath, cell: ToolCell.self, data: (row.text("name") ?? "?") + " #" + row.identifier, registerCell: false)
        }
        let page = try Self.body(app, "/shed?sort=name")
        #expect(page.text.contains("<b class=\"tool\">Drill #2</b>"))
        let json = try Self.body(app, "/shed.json").text
        #expect(json.contains("\"cell\":\"ToolCell\""))
        #expect(try Self.body(app, "/shed/3.json").text.contains("\"name\":\"Saw\""))
        #expect(try app.makeRouter().respond(to: Request(target: "/shed.csv")).status == .ok)
    }

    /// A row's typed getters, as an app's cell provider reads them.
    @Test func aDatabaseRowReadsEachColumnByItsType() throws {
        let file = try TemporaryDatabase(
            Self.shop + "\nCREATE TABLE parts (id INTEGER PRIMARY KEY, n INTEGER, r REAL, t TEXT, b BLOB);"
                + "\nINSERT INTO parts VALUES (1, 7, 2.5, 'seven', x'00ff'), (2, NULL, 3, NULL, NULL);")
        let app = Self.app()
        try app.register(ToolCell.self)
        try app.mount(Database(path: file.path), table: "parts", at: "/parts") { row, indexPath in
            func shown<Value>(_ name: String, _ value: Value?) -> String { value.map { "\(name)=\($0)" } ?? "\(name)=nil" }
            var read: [String] = []
            read.append(shown("n", row.integer("n")))
            read.append(shown("r", row.real("r")))
            read.append(shown("nr", row.real("n")))
            read.append(row.text("t") ?? "t=nil")
            read.append(shown("b", row.blob("b")))
            read.append("null=\(row.isNull("t"))")
            read.append("missing=\(row.isNull("nope"))")
            read.append(shown("ti", row.integer("t")))
            return DataCellProvider(for: indexPath, cell: ToolCell.self, data: read.joined(separator: " "), registerCell: false)
        }
        let page = try Self.body(app, "/parts").text
        #expect(page.contains("<b class=\"tool\">n=7 r=2.5 nr=7.0 seven b=[0, 255] null=false missing=true ti=nil</b>"))
        #expect(page.contains("<b class=\"tool\">n=nil r=3.0 nr=nil t=nil b=nil null=true missing=true ti=nil</b>"))
    }
}
