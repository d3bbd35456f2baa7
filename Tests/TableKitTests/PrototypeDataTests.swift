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
