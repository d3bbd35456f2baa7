import TableKit
import Testing

@Suite struct PrototypeTagAuditTests {
    /// Values by name, as a row's data.
    private struct Values: PrototypeData {
        var values: [String: PrototypeValue]
        func prototypeValue(forKey key: String) -> PrototypeValue { values[key] ?? .missing }
    }

    /// A row's data that also names its cell: `CellData` for a prototype.
    private struct NoteRow: CellData, PrototypeData {
        var title: String
        var cellIdentifier: String { "NoteCell" }
        func prototypeValue(forKey key: String) -> PrototypeValue { key == "title" ? .text(title) : .missing }
    }

    private func row(_ row: Int) -> IndexPath { IndexPath(row: row, section: 0) }

    /// What a warning says, for comparing (``PrototypeTagWarning`` has no public initializer).
    private func summary(_ warning: PrototypeTagWarning) -> String {
        "\(warning.identifier) \(warning.file ?? "-") \(warning.line):\(warning.column) \(warning.tag)"
    }

    @Test func aMisspeltTagIsReportedWithItsFileLineAndColumn() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "BookCell.html",
            """
            {{! A book: its title, and its author when there is one. }}
            <a class="cell-link" href="{{href}}">
              <span class="cell-title">{{titel}}</span>{{#author}} · {{author}}{{/author}}
              <span class="cell-detail">{{ titel }}</span></a>

            """)
        let registry = ReuseRegistry()
        try registry.registerPrototypes(in: folder.path)
        let audit = PrototypeTagAudit(registry: registry)
        audit.record(DataCellProvider(prototype: "BookCell", for: row(0), data: ["title": "Dune", "author": "Frank Herbert"]))

        let warnings = audit.warnings
        try #require(warnings.count == 1)
        let warning = warnings[0]
        #expect(warning.identifier == "BookCell")
        #expect(warning.file == folder.path + "/BookCell.html")
        #expect(warning.line == 3)
        #expect(warning.column == 28, "the first {{titel}}, at its {{")
        #expect(warning.tag == "titel")
        #expect(warning.description == "\(folder.path)/BookCell.html:3:28: {{titel}} is answered by no row's data (BookCell)")
        #expect(audit.uncheckedPrototypes.isEmpty)
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("PriceCell", template: "<b>€ 🙂 {{prize}}</b>")
        let audit = PrototypeTagAudit(registry: registry)
        audit.record(DataCellProvider(prototype: "PriceCell", for: row(0), data: ["price": "3"]))
        #expect(audit.warnings.map(summary) == ["PriceCell - 1:8 prize"])
    }

    @Test func aTagAnsweredByAnyOneRowIsNotReported() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("NoteCell", template: "<p>{{title}}</p>{{#body}}<p>{{body}}</p>{{/body}}{{^pinned}}!{{/pinned}}")
        let audit = PrototypeTagAudit(registry: registry)

        audit.record(DataCellProvider(prototype: "NoteCell", for: row(0), data: ["title": "First"]))
        #expect(audit.warnings.map(\.tag) == ["body", "pinned"])

        audit.record(DataCellProvider(prototype: "NoteCell", for: row(1), data: ["title": "Second", "body": "Text"]))
        audit.record(DataCellProvider(prototype: "NoteCell", for: row(2), data: ["title": "Third"]))
        #expect(audit.warnings.map(\.tag) == ["pinned"])
    }

    /// A section's name is present when the data gives it any value, even one that hides the section.
    @Test func sectionTagsAnsweredByFalseOrEmptyValuesAreAnswered() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("FlagCell", template: "{{#starred}}★{{/starred}}{{^empty}}-{{/empty}}{{#zero}}0{{/zero}}{{#gone}}{{/gone}}")
        let audit = PrototypeTagAudit(registry: registry)
        let data = Values(values: ["starred": .flag(false), "empty": .text(""), "zero": .number(0)])
        audit.record(DataCellProvider(prototype: "FlagCell", for: row(0), data: data))
        // {{#gone}} follows 25, 21 and 19 characters of the three sections before it.
        #expect(audit.warnings.map(summary) == ["FlagCell - 1:66 gone"])
    }

    @Test func theTablesOwnNamesAreNeverReported() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("LinkCell", template: #"<a href="{{href}}" data-id="{{id}}">{{#href}}{{/href}}{{^id}}{{/id}}</a>"#)
        let audit = PrototypeTagAudit(registry: registry)
        audit.record(DataCellProvider(prototype: "LinkCell", for: row(0), data: [String: String]()))
        #expect(audit.warnings.isEmpty)
        #expect(audit.uncheckedPrototypes.isEmpty)
    }

    @Test func classCellProvidersAreIgnored() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("NoteCell", template: "{{title}}")
        try registry.register(TitleCell.self)
        let audit = PrototypeTagAudit(registry: registry)

        audit.record(DataCellProvider(for: row(0)) { (cell: TitleCell) in cell.title = "Title" })
        audit.record(DataCellProvider(for: row(1), cell: ToggleCell.self, data: (title: "Wi-Fi", isOn: true)))
        // A class cell under a prototype's identifier: the audit cannot see what it is given.
        audit.record(DataCellProvider(reuseIdentifier: "NoteCell", for: row(2)) { (cell: PrototypeCell) in cell.data = ["x": "y"] })

        #expect(audit.warnings.isEmpty)
        #expect(audit.uncheckedPrototypes == ["NoteCell"])
    }

    @Test func aPrototypeThatIsNotRegisteredIsIgnored() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        let audit = PrototypeTagAudit(registry: registry)
        audit.record(DataCellProvider(prototype: "NoSuchCell", for: row(0), data: ["title": "x"]))
        audit.record(DataCellProvider(prototype: "TitleCell", for: row(1), data: ["title": "x"]))
        #expect(audit.warnings.isEmpty)
        #expect(audit.uncheckedPrototypes.isEmpty)
    }

    @Test func prototypesNoRowUsedAreUnchecked() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("ValueCell", template: "{{title}} {{value}}")
        try registry.registerPrototype("NoteCell", template: "{{title}}")
        try registry.registerPrototype("AlertCell", template: "{{message}}")
        let audit = PrototypeTagAudit(registry: registry)
        #expect(audit.uncheckedPrototypes == ["AlertCell", "NoteCell", "ValueCell"])

        audit.record(DataCellProvider(prototype: "NoteCell", for: row(0), data: ["title": "x"]))
        #expect(audit.uncheckedPrototypes == ["AlertCell", "ValueCell"])
        #expect(audit.warnings.isEmpty, "an unchecked template's tags are not warnings")
    }

    @Test func aTemplateRegisteredFromAStringHasNoFile() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("NoteCell", template: "<p>\n{{titel}}</p>")
        let audit = PrototypeTagAudit(registry: registry)
        audit.record(DataCellProvider(prototype: "NoteCell", for: row(0), data: ["title": "x"]))
        let warning = try #require(audit.warnings.first)
        #expect(warning.file == nil)
        #expect(warning.description == "NoteCell:2:1: {{titel}} is answered by no row's data (NoteCell)")
    }

    @Test func aCellDataRowNamingAPrototypeIsRecorded() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("NoteCell", template: "{{title}}{{body}}")
        let audit = PrototypeTagAudit(registry: registry)
        audit.record(DataCellProvider(cellData: NoteRow(title: "x"), for: row(0)))
        #expect(audit.warnings.map(\.tag) == ["body"])
        #expect(audit.uncheckedPrototypes.isEmpty)
    }

    @Test func warningsAreInFileLineAndColumnOrder() throws {
        let folder = try TemporaryFolder()
        try folder.write("BCell.html", "{{b2}}\n{{b1}}{{b3}}")
        try folder.write("ACell.html", "{{a1}}")
        let registry = ReuseRegistry()
        try registry.registerPrototypes(in: folder.path)
        try registry.registerPrototype("StringCell", template: "{{s1}}")
        let audit = PrototypeTagAudit(registry: registry)
        for identifier in ["StringCell", "BCell", "ACell"] {
            audit.record(DataCellProvider(prototype: identifier, for: row(0), data: [String: String]()))
        }
        #expect(audit.warnings.map { "\($0.tag) \($0.line):\($0.column)" } == ["s1 1:1", "a1 1:1", "b2 1:1", "b1 2:1", "b3 2:7"])
    }
}
