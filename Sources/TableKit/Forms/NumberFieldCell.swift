import ByteWriters

/// A number field, `<input type="number">` with its bounds and step (a `UITextField` with a
/// number pad).
public final class NumberFieldCell: FieldCell {
    public override func renderControl(_ field: FormField, into html: inout HTMLWriter) {
        html.raw("<input class=\"field-input\" type=\"number\"")
        writeControlAttributes(of: field, into: &html)
        // A value that is no number is left out, as a browser would drop it: the field's error says what was sent.
        if field.value.allSatisfy({ "0123456789.-eE".contains($0) }), let number = Double(field.value), number.isFinite {
            html.attribute("value", field.value)
        }
        if case .number(let minimum, let maximum, let allowsDecimals) = field.kind {
            if let minimum { html.attribute("min", FormField.numberText(minimum)) }
            if let maximum { html.attribute("max", FormField.numberText(maximum)) }
            html.raw(allowsDecimals ? " step=\"any\" inputmode=\"decimal\"" : " step=\"1\" inputmode=\"numeric\"")
        }
        if let placeholder = field.placeholder { html.attribute("placeholder", placeholder) }
        html.raw(">")
    }
}
