import ByteWriters

/// A field of several lines of text, `<textarea>` (`UITextView` in a table cell).
public final class TextAreaCell: FieldCell {
    public override func renderControl(_ field: FormField, into html: inout HTMLWriter) {
        html.raw("<textarea class=\"field-input\" rows=\"4\"")
        writeControlAttributes(of: field, into: &html)
        FieldCell.writeTextAttributes(of: field, into: &html)
        // A line break right after the start tag is dropped by the parser: one is written so
        // that a value starting with a line break keeps it.
        html.raw(">\n")
        html.text(field.value)
        html.raw("</textarea>")
    }
}
