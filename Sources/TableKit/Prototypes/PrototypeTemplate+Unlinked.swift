extension PrototypeTemplate {
    /// The row link a prototype opens, `<a class="cell-link" href="{{href}}">`, as the built-in
    /// prototypes and the articles write it.
    static let linkOpening = #"<a class="cell-link" href="{{href}}">"#

    /// `source` with its row link written as `<span class="cell-link">…</span>`, for rows that have
    /// no detail (a list without details, such as a detail list's rows): `href=""` would link to
    /// the page itself, and an `<a>` without `href` cannot be focused yet reads as a link. Nil when
    /// the template opens no such link.
    ///
    /// The first `</a>` after the opening is its end: an `<a>` cannot hold another.
    static func unlinkedSource(of source: String) -> String? {
        guard let opening = source.firstRange(of: linkOpening), let closing = source[opening.upperBound...].firstRange(of: "</a>") else {
            return nil
        }
        var unlinked = source
        unlinked.replaceSubrange(closing, with: "</span>")
        unlinked.replaceSubrange(opening, with: #"<span class="cell-link">"#)
        return unlinked
    }
}
