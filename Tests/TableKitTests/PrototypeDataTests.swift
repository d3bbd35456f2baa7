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
