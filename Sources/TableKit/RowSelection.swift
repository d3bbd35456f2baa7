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
    /// Opens a row's link, `<a class="cell-link" href="…">`, to its detail; close it with
    /// ``closeSelectionLink(_:)`` given the same selection.
    ///
    /// Without a selection (a list without details, such as a detail list's rows, or a row whose
    /// identifier names none) it opens `<span class="cell-link">` instead: an `<a>` without `href`
    /// is not a link — it cannot be focused — yet reads as one to a screen reader's user.
    public mutating func openSelectionLink(_ selection: RowSelection?) {
        guard let selection else {
            raw("<span class=\"cell-link\">")
            return
        }
        raw("<a class=\"cell-link\" href=\"")
        selection.write(into: &self)
        raw("\">")
    }

    /// Closes what ``openSelectionLink(_:)`` opened for `selection`: `</a>`, or `</span>`.
    public mutating func closeSelectionLink(_ selection: RowSelection?) {
        raw(selection == nil ? "</span>" : "</a>")
    }
}
