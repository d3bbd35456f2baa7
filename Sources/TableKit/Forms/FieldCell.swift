import ByteWriters

/// What every field cell has: its ``FormField``, set by configuration, and the markup around the
/// control — the label, the field's error, its help — with the control tied to them.
///
/// A field cell writes, inside the row's `<li>`: `<label for="field-NAME">`, the error
/// (`<p class="field-error" id="field-NAME-error">`) when the field has one, the control
/// (``renderControl(_:into:)``, the subclass's) and the help (`<p class="field-help"
/// id="field-NAME-help">`). The control carries `id="field-NAME"`, `name`, `required`,
/// `aria-invalid="true"` when the field has an error and `aria-describedby` naming the error and the
/// help, so a screen reader reads the message with the field. NAME is the field's name
/// percent-encoded, as a row's identifier is in its id.
///
/// Subclass it for a control of your own: override ``renderControl(_:into:)`` and write the
/// control's attributes with ``writeControlAttributes(of:into:)``.
open class FieldCell: TableViewCell, ConfigurableCell {
    /// The field this row shows, until the next reuse.
    public private(set) var field: FormField?

    public required init() {}

    public func configure(with field: FormField) {
        self.field = field
    }

    open override func prepareForReuse() {
        field = nil
    }

    public final override func render(into html: inout HTMLWriter) throws {
        guard let field else { return }
        render(field, into: &html)
    }

    /// Writes the label, the error, the control and the help, in that order: the message is read
    /// before the control it concerns (and seen above it).
    open func render(_ field: FormField, into html: inout HTMLWriter) {
        writeLabel(of: field, into: &html)
        writeError(of: field, into: &html)
        renderControl(field, into: &html)
        writeHelp(of: field, into: &html)
    }

    /// Writes the control itself; nothing here.
    open func renderControl(_ field: FormField, into html: inout HTMLWriter) {}

    /// `<label class="field-label" for="field-NAME">Label</label>`, with "(optional)" for a field
    /// that is not required (a switch is never either).
    public final func writeLabel(of field: FormField, into html: inout HTMLWriter) {
        html.raw("<label class=\"field-label\" for=\"")
        Self.writeID(of: field, "\">", into: &html)
        html.text(field.label)
        if !field.isRequired && field.kind != .toggle { html.raw(" <span class=\"field-optional\">(optional)</span>") }
        html.raw("</label>")
    }

    /// The field's error, `<p class="field-error" id="field-NAME-error">`, when it has one.
    public final func writeError(of field: FormField, into html: inout HTMLWriter) {
        guard let error = field.error else { return }
        html.raw("<p class=\"field-error\" id=\"")
        Self.writeID(of: field, "-error\"><span class=\"visually-hidden\">Error: </span>", into: &html)
        html.text(error)
        html.raw("</p>")
    }

    /// The field's help, `<p class="field-help" id="field-NAME-help">`, when it has some.
    public final func writeHelp(of field: FormField, into html: inout HTMLWriter) {
        guard let help = field.help else { return }
        html.raw("<p class=\"field-help\" id=\"")
        Self.writeID(of: field, "-help\">", into: &html)
        html.text(help)
        html.raw("</p>")
    }

    /// ` id="field-NAME" name="NAME"`, ` required`, ` aria-invalid="true"` and ` aria-describedby`:
    /// what ties a control to its label, its message and its help.
    public final func writeControlAttributes(of field: FormField, into html: inout HTMLWriter) {
        html.raw(" id=\"")
        Self.writeID(of: field, "\"", into: &html)
        html.attribute("name", field.name)
        if field.isRequired { html.raw(" required") }
        if field.error != nil { html.raw(" aria-invalid=\"true\"") }
        if field.error != nil || field.help != nil {
            html.raw(" aria-describedby=\"")
            if field.error != nil { Self.writeID(of: field, "-error", into: &html) }
            if field.error != nil && field.help != nil { html.raw(" ") }
            if field.help != nil { Self.writeID(of: field, "-help", into: &html) }
            html.raw("\"")
        }
    }

    /// `field-NAME` and `suffix`: the id of a field's control (and, with a suffix, of its message and help).
    public static func writeID(of field: FormField, _ suffix: StaticString, into html: inout HTMLWriter) {
        html.raw("field-")
        html.pathSegment(field.name)
        html.raw(suffix)
    }

    /// ` placeholder="…"` and ` maxlength="…"`, for the controls that take text.
    static func writeTextAttributes(of field: FormField, into html: inout HTMLWriter) {
        if let placeholder = field.placeholder { html.attribute("placeholder", placeholder) }
        html.attribute("maxlength", field.maxLength)
        if let autocomplete = field.autocomplete { html.attribute("autocomplete", autocomplete) }
    }
}
