import ByteWriters

/// An on-off field, a checkbox shown as a switch (`UISwitch` as a cell's accessory view).
///
/// A checkbox that is off sends nothing, so a hidden `0` under the same name comes first: the
/// body then always holds the field, and a checked box's `1` after it wins.
public final class SwitchCell: FieldCell {
    /// `switchfield`: the row's class, apart from `.switch`, the read-only indicator of a list's rows.
    public override class var styleClass: String { "switchfield" }

    public override func render(_ field: FormField, into html: inout HTMLWriter) {
        html.raw("<div class=\"field-switch-row\">")
        writeLabel(of: field, into: &html)
        renderControl(field, into: &html)
        html.raw("</div>")
        writeError(of: field, into: &html)
        writeHelp(of: field, into: &html)
    }

    public override func renderControl(_ field: FormField, into html: inout HTMLWriter) {
        html.raw("<input type=\"hidden\" value=\"0\"")
        html.attribute("name", field.name)
        // A plain checkbox to assistive technology: `role="switch"` would need an `aria-checked`
        // kept in step by a script, and the page works without one.
        html.raw("><input class=\"field-switch\" type=\"checkbox\" value=\"1\"")
        writeControlAttributes(of: field, into: &html)
        if FormField.switchValue(field.value) == true { html.raw(" checked") }
        html.raw(">")
    }
}
