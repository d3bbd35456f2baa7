import ByteWriters

/// A field of one line of text, `<input type="text">` (`UITextField` in a table cell).
public final class TextFieldCell: FieldCell {
    public override func renderControl(_ field: FormField, into html: inout HTMLWriter) {
        html.raw("<input class=\"field-input\" type=\"text\"")
        writeControlAttributes(of: field, into: &html)
        html.attribute("value", field.value)
        FieldCell.writeTextAttributes(of: field, into: &html)
        html.raw(">")
    }
}
