import ByteWriters

/// A value found by searching (``FormField/Kind/search(_:)``): a text field tied to a
/// `<datalist>` that the page's script fills with the matches of what is typed (the native list
/// of suggestions, which keyboards and screen readers know), and a "Choose…" button that, without
/// a script, sends the form's values by GET to a page of matches (`formnovalidate`, so an
/// unfinished form can go). The current value's title is said after the field.
public final class SearchFieldCell: FieldCell {
    /// `searchfield`: the row's class, which lays out the button beside the field.
    public override class var styleClass: String { "searchfield" }

    public override func render(_ field: FormField, into html: inout HTMLWriter) {
        guard case .search(let search) = field.kind else { return }
        writeLabel(of: field, into: &html)
        writeError(of: field, into: &html)
        html.raw("<div class=\"field-search\"><input class=\"field-input\" type=\"text\"")
        writeControlAttributes(of: field, into: &html)
        html.attribute("value", field.value)
        html.raw(" list=\"")
        FieldCell.writeID(of: field, "-choices\" autocomplete=\"off\"", into: &html)
        html.attribute("data-choices", search.source)
        FieldCell.writeTextAttributes(of: field, into: &html)
        html.raw("><datalist id=\"")
        FieldCell.writeID(of: field, "-choices\"></datalist>", into: &html)
        if let chooseAction = search.chooseAction {
            html.raw("<button class=\"button field-choose\" type=\"submit\" name=\"_choose\"")
            html.attribute("value", field.name)
            html.raw(" formmethod=\"get\"")
            html.attribute("formaction", chooseAction)
            html.raw(" formnovalidate>Choose…<span class=\"visually-hidden\"> ")
            html.text(field.label)
            html.raw("</span></button>")
            for (name, value) in search.carried.sorted(by: { $0.key < $1.key }) {
                html.raw("<input type=\"hidden\"")
                html.attribute("name", name)
                html.attribute("value", value)
                html.raw(">")
            }
        }
        html.raw("</div>")
        if let title = search.selectedTitle {
            html.raw("<p class=\"field-chosen\">Now: <span class=\"field-chosen-title\">")
            html.text(title)
            html.raw("</span></p>")
        }
        writeHelp(of: field, into: &html)
    }
}
