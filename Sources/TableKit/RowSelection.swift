import ByteWriters

/// Where selecting a row leads: the row's detail, at `base/identifier`.
///
/// The server's answer to `didSelectRowAt`: each row links to its detail route. The parts are kept
/// apart (no string is built per row) and written escaped by ``write(into:)``.
public struct RowSelection: Sendable {
    /// The list's path, e.g. `/people`.
    public var base: String
    /// The row's stable identifier, e.g. `42`.
    public var identifier: String

    public init(base: String, identifier: String) {
        self.base = base
        self.identifier = identifier
    }

    /// Writes the link target as an attribute value (escaped; the identifier percent-encoded).
    public func write(into html: inout HTMLWriter) {
        html.attributeText(base)
        html.raw("/")
        html.pathSegment(identifier)
    }

    /// The link target as a string (for JSON and redirects).
    public var href: String {
        var writer = HTMLWriter()
        writer.pathSegment(identifier)
        return base + "/" + writer.string
    }
}

extension HTMLWriter {
    /// Opens a row's link, `<a class="cell-link" href="…">`, to its detail; without `href`
    /// when the list has no details. Close it with `</a>`.
    public mutating func openSelectionLink(_ selection: RowSelection?) {
        raw("<a class=\"cell-link\"")
        if let selection {
            raw(" href=\"")
            selection.write(into: &self)
            raw("\"")
        }
        raw(">")
    }
}
