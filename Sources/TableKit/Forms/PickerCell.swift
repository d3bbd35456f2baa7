import ByteWriters

/// A choice among options, `<select>` (a `UIPickerView`, or a table cell that pushes a list of
/// choices). Its first option is an empty "Choose…", which a field that is not required keeps as
/// its "none".
public final class PickerCell: FieldCell {
    public override func renderControl(_ field: FormField, into html: inout HTMLWriter) {
        guard case .picker(let options) = field.kind else { return }
        html.raw("<select class=\"field-input\"")
        writeControlAttributes(of: field, into: &html)
        html.raw(">")
        // A required select needs an empty first option to say nothing is chosen yet (HTML's rule).
        html.raw("<option value=\"\">Choose…</option>")
        for option in options {
            html.raw("<option")
            html.attribute("value", option.value)
            if option.value == field.value && !field.value.isEmpty { html.raw(" selected") }
            html.raw(">")
            html.text(option.title)
            html.raw("</option>")
        }
        html.raw("</select>")
    }
}
