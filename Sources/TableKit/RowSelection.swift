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
        // In a table's render, the row's own link is already written once (encoded in its `id`).
        if html.copyRowLink(of: self) { return }
        writeEscaped(into: &html)
    }

    /// ``write(into:)`` without looking for the row's link to copy (for a caller that already did).
    func writeEscaped(into html: inout HTMLWriter) {
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

extension HTMLWriter {
    /// Writes `selection`'s link by copying what the table wrote for this row, when the selection
    /// is the row's own; returns false (having written nothing) otherwise.
    @inline(__always) mutating func copyRowLink(of selection: RowSelection) -> Bool {
        copyRowLink(base: StringBits(selection.base), identifier: StringBits(selection.identifier))
    }

    /// ``copyRowLink(of:)`` for a selection read where it is stored, without copying it (or
    /// retaining its strings) first.
    @inline(__always) mutating func copyRowLink(at selection: UnsafePointer<RowSelection>) -> Bool {
        guard rowLink != nil else { return false }
        let raw = UnsafeRawPointer(selection)
        let identifier = raw + MemoryLayout<RowSelection>.offset(of: \.identifier).unsafelyUnwrapped
        let base = raw + MemoryLayout<RowSelection>.offset(of: \.base).unsafelyUnwrapped
        return copyRowLink(base: StringBits(at: base), identifier: StringBits(at: identifier))
    }
}
