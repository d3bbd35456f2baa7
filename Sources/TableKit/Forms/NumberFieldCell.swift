import ByteWriters

/// A number field, `<input type="number">` with its bounds and step (a `UITextField` with a
/// number pad).
public final class NumberFieldCell: FieldCell {
    public override func renderControl(_ field: FormField, into html: inout HTMLWriter) {
        html.raw("<input class=\"field-input\" type=\"number\"")
        writeControlAttributes(of: field, into: &html)
        html.attribute("value", field.value)
        if case .number(let minimum, let maximum, let allowsDecimals) = field.kind {
            if let minimum { html.attribute("min", FormField.numberText(minimum)) }
            if let maximum { html.attribute("max", FormField.numberText(maximum)) }
            html.raw(allowsDecimals ? " step=\"any\" inputmode=\"decimal\"" : " step=\"1\" inputmode=\"numeric\"")
        }
        if let placeholder = field.placeholder { html.attribute("placeholder", placeholder) }
        html.raw(">")
    }
}
