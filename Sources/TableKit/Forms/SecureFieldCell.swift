import ByteWriters

/// A password field, `<input type="password">` (`UITextField` with `isSecureTextEntry`). It never
/// writes a value: a password sent is not written back into a page.
public final class SecureFieldCell: FieldCell {
    public override func renderControl(_ field: FormField, into html: inout HTMLWriter) {
        html.raw("<input class=\"field-input\" type=\"password\"")
        writeControlAttributes(of: field, into: &html)
        FieldCell.writeTextAttributes(of: field, into: &html)
        html.raw(">")
    }
}
