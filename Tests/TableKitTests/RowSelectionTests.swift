import TableKit
import Testing

@Suite struct RowSelectionTests {
    @Test func theLinkIsTheBaseAndTheEncodedIdentifier() {
        let selection = RowSelection(base: "/people", identifier: "42")
        #expect(selection.href == "/people/42")
        #expect(RowSelection(base: "/people", identifier: "a b/../c").href == "/people/a%20b%2F..%2Fc")
    }

    @Test func writtenAsAnAttributeTheBaseIsEscapedAndTheIdentifierEncoded() {
        var html = HTMLWriter()
        RowSelection(base: #"/list?a="1"&b='2'"#, identifier: #"<x y="z">"#).write(into: &html)
        #expect(html.string == "/list?a=&quot;1&quot;&amp;b=&#39;2&#39;/%3Cx%20y%3D%22z%22%3E")
    }

    /// A prototype's `{{href}}` and `{{id}}` come from the selection it is given, escaped and encoded.
    @Test func aPrototypeWritesTheSelectionsLink() throws {
        let template = try PrototypeTemplate(#"<a href="{{href}}">{{id}}</a>"#)
        var html = HTMLWriter()
        let selection = RowSelection(base: "/a-base-longer-than-fifteen-bytes&", identifier: "4 2")
        template.render(into: &html, data: [String: String](), selection: selection)
        #expect(html.string == #"<a href="/a-base-longer-than-fifteen-bytes&amp;/4%202">4 2</a>"#)
    }

    @Test func partsAreKept() {
        var selection = RowSelection(base: "/a", identifier: "1")
        selection.identifier = "2"
        #expect(selection.base == "/a" && selection.identifier == "2" && selection.href == "/a/2")
    }
}
