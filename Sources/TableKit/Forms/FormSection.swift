/// A group of a form's fields under a header and above a footer, as a static table view's
/// section (`titleForHeaderInSection`, `titleForFooterInSection`).
public struct FormSection: Sendable, Equatable {
    public var header: String?
    public var footer: String?
    public var fields: [FormField]

    public init(header: String? = nil, footer: String? = nil, fields: [FormField]) {
        self.header = header
        self.footer = footer
        self.fields = fields
    }
}
