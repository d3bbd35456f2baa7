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

    /// A prototype reads a cell's present `RowSelection?` in place as a `RowSelection`: that needs
    /// `nil` to live in the strings' spare bits, with no tag byte after them.
    @Test func anOptionalSelectionIsLaidOutAsTheSelection() {
        #expect(MemoryLayout<RowSelection?>.size == MemoryLayout<RowSelection>.size)
        var selection: RowSelection? = RowSelection(base: "/a-base-longer-than-fifteen-bytes", identifier: "42")
        let read = withUnsafePointer(to: &selection) { UnsafeRawPointer($0).assumingMemoryBound(to: RowSelection.self).pointee.href }
        #expect(read == "/a-base-longer-than-fifteen-bytes/42")
    }

    @Test func partsAreKept() {
        var selection = RowSelection(base: "/a", identifier: "1")
        selection.identifier = "2"
        #expect(selection.base == "/a" && selection.identifier == "2" && selection.href == "/a/2")
    }
}
