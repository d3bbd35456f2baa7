import TableKit
import Testing

@Suite struct PrototypeDataTests {
    @Test func aStringDictionaryIsPrototypeData() {
        let data = ["name": "Ada"]
        guard case .text("Ada") = data.prototypeValue(forKey: "name") else {
            Issue.record("expected .text(\"Ada\")")
            return
        }
        guard case .missing = data.prototypeValue(forKey: "role") else {
            Issue.record("expected .missing")
            return
        }
    }
}

@Suite struct WritePrototypeValueTests {
    /// Data that writes its own values must write what its `prototypeValue(forKey:)` gives, escaped.
    struct Direct: PrototypeData {
        var name: String
        func prototypeValue(forKey key: String) -> PrototypeValue { key == "name" ? .text(name) : .missing }
        func writePrototypeValue(forKey key: String, into html: inout HTMLWriter) {
            if key == "name" { html.text(name) }
        }
    }

    /// The same data without its own writer: the default goes through `prototypeValue(forKey:)`.
    struct Indirect: PrototypeData {
        var name: String
        func prototypeValue(forKey key: String) -> PrototypeValue { key == "name" ? .text(name) : .missing }
    }

    @Test func aTemplateWritesTheSameBytesEitherWay() throws {
        let template = try PrototypeTemplate("<b>{{name}}</b>{{missing}}{{#name}}!{{/name}}")
        let name = "Ada <b>&\"'"
        var direct = HTMLWriter()
        template.render(into: &direct, data: Direct(name: name))
        var indirect = HTMLWriter()
        template.render(into: &indirect, data: Indirect(name: name))
        #expect(direct.string == "<b>Ada &lt;b&gt;&amp;&quot;&#39;</b>!")
        #expect(direct.string == indirect.string)
    }
}

@Suite struct PrototypeSlotTests {
    /// Data that names its values by number, in another order than the template reads them, and
    /// has one value (`extra`) only by name.
    struct Slotted: PrototypeData {
        var name: String
        var role: String
        static let prototypeSlots = ["role", "name"]

        func prototypeValue(forKey key: String) -> PrototypeValue {
            switch key {
            case "name": .text(name)
            case "role": .text(role)
            case "extra": .text("E&")
            default: .missing
            }
        }

        func writePrototypeValue(slot: Int, into html: inout HTMLWriter) {
            html.text(slot == 0 ? role : name)
        }
    }

    /// A prototype cell matches its template's tags to the data type's slots, writes by slot what
    /// has one and by name what has not, and matches again when the next row's data is of another
    /// type (rows alternate here between `Slotted` and a dictionary, through one recycled cell).
    @Test func aCellWritesBySlotWhatHasOneAndMatchesAgainForAnotherType() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("PairCell", template: "{{name}}|{{role}}|{{extra}}|{{#role}}r{{/role}}")
        let rows = 6
        let controller = StubController(rows: rows) { indexPath in
            let name = "N<\(indexPath.row)>"
            let role = "R\"\(indexPath.row)"
            if indexPath.row % 2 == 0 {
                return DataCellProvider(prototype: "PairCell", for: indexPath, data: Slotted(name: name, role: role))
            }
            return DataCellProvider(prototype: "PairCell", for: indexPath, data: ["name": name, "role": role])
        }
        let html = try controller.renderedHTML(registry: registry)
        let cells = html.split(separator: "\n").filter { $0.hasPrefix("<li") }.map { $0.split(separator: ">", maxSplits: 1)[1] }
        #expect(cells.count == rows)
        for (row, cell) in cells.enumerated() {
            let extra = row % 2 == 0 ? "E&amp;" : ""
            #expect(cell == "N&lt;\(row)&gt;|R&quot;\(row)|\(extra)|r</li>")
        }
        #expect(registry.statistics.cellsCreated == 1)
    }
}
