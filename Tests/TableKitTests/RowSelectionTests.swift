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

    /// Without a selection a cell's link is a `<span>`: an `<a>` without `href` cannot be focused.
    @Test func withoutASelectionTheLinkIsASpan() {
        var html = HTMLWriter()
        html.openSelectionLink(nil)
        html.closeSelectionLink(nil)
        html.raw("|")
        let selection = RowSelection(base: "/people", identifier: "7")
        html.openSelectionLink(selection)
        html.closeSelectionLink(selection)
        #expect(html.string == #"<span class="cell-link"></span>|<a class="cell-link" href="/people/7"></a>"#)
    }

    /// A prototype's row link, `<a class="cell-link" href="{{href}}">` up to its `</a>`, is a
    /// `<span>` for a row without a selection, unless the row's data gives an `href`; the rest of
    /// the template, other links included, is written as it is.
    @Test func aPrototypesRowLinkIsASpanWithoutASelection() throws {
        let template = try PrototypeTemplate(
            #"{{#x}}<i>{{x}}</i>{{/x}}<a class="cell-link" href="{{href}}"><b>{{name}}</b></a> <a href="mailto:{{mail}}">{{mail}}</a>"#)
        func render(_ data: [String: String], _ selection: RowSelection?) -> String {
            var html = HTMLWriter()
            template.render(into: &html, data: data, selection: selection)
            return html.string
        }
        let data = ["x": "1", "name": "Ada <3", "mail": "a@b"]
        #expect(render(data, nil) == #"<i>1</i><span class="cell-link"><b>Ada &lt;3</b></span> <a href="mailto:a@b">a@b</a>"#)
        #expect(
            render(data, RowSelection(base: "/p", identifier: "1"))
                == #"<i>1</i><a class="cell-link" href="/p/1"><b>Ada &lt;3</b></a> <a href="mailto:a@b">a@b</a>"#)
        var linked = data
        linked["href"] = "/elsewhere"
        #expect(render(linked, nil) == #"<i>1</i><a class="cell-link" href="/elsewhere"><b>Ada &lt;3</b></a> <a href="mailto:a@b">a@b</a>"#)
    }

    @Test func partsAreKept() {
        var selection = RowSelection(base: "/a", identifier: "1")
        selection.identifier = "2"
        #expect(selection.base == "/a" && selection.identifier == "2" && selection.href == "/a/2")
    }
}
