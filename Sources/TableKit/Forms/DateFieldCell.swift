import ByteWriters

/// A day, `<input type="date">` (`UIDatePicker` in `.date` mode); its value is written `2026-11-28`.
public final class DateFieldCell: FieldCell {
    public override func renderControl(_ field: FormField, into html: inout HTMLWriter) {
        html.raw("<input class=\"field-input\" type=\"date\"")
        writeControlAttributes(of: field, into: &html)
        // A value that is no day is left out, as a browser would drop it: the field's error says what was sent.
        if CalendarDay(field.value) != nil { html.attribute("value", field.value) }
        html.raw(">")
    }
}
