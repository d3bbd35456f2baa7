import TableKit

/// A ``WindowPatch`` as Hotwire Turbo's `<turbo-stream>` elements, one per operation, as Turbo
/// documents them (turbo.hotwired.dev, "Streams"): `action` and `target` (an element id) or
/// `targets` (a CSS selector), and a `<template>` with the content for every action but `remove`
/// and `refresh`.
///
/// Rows are targeted by the id the page gives them (`row-` and the identifier as a path segment),
/// and their `<template>` holds the `<li>` the list's own cell renders. A row goes `before` the
/// next row its section kept, or `after` the one before it, or is appended to its section's `<ul>`
/// (`section-ID-rows`, the section's identifier percent-encoded as the page writes it);
/// a section's header and footer texts are `update`d, the pager (`#list-pager`) and the table
/// header's live part (`#list-live-header`, a database list's facets) `replace`d. A header or footer that appears or
/// disappears, or a section that does, cannot be patched: the batch is a single `refresh`.
enum TurboStreamBatch {
    /// The batch's elements, one per line: the data of one event.
    static func data(_ patch: WindowPatch, version: WindowVersion) -> String {
        var html = HTMLWriter()
        for operation in patch.operations {
            switch operation {
            case .refresh:
                return refresh
            case .remove(let id):
                html.raw("<turbo-stream action=\"remove\"")
                writeTarget(id, into: &html)
                html.raw("></turbo-stream>\n")
            case .insert(let id, let section, let before, let after):
                if let before {
                    html.raw("<turbo-stream action=\"before\"")
                    writeTarget(before, into: &html)
                } else if let after {
                    html.raw("<turbo-stream action=\"after\"")
                    writeTarget(after, into: &html)
                } else {
                    // The section's own list, by its id: one element, however many a page holds.
                    html.raw("<turbo-stream action=\"append\" target=\"section-")
                    html.pathSegment(section.identifier)
                    html.raw("-rows\"")
                }
                writeTemplate(version.rows[id] ?? [], into: &html)
            case .replace(let id):
                html.raw("<turbo-stream action=\"replace\"")
                writeTarget(id, into: &html)
                writeTemplate(version.rows[id] ?? [], into: &html)
            case .pager:
                html.raw("<turbo-stream action=\"replace\" target=\"")
                html.raw(Pager.elementID)
                html.raw("\"")
                writeTemplate(version.pager, into: &html)
            case .liveHeader:
                html.raw("<turbo-stream action=\"replace\" target=\"")
                html.raw(liveHeaderElementID)
                html.raw("\"")
                writeTemplate(version.liveHeader, into: &html)
            case .titles(let new, let old):
                guard (new.header == nil) == (old.header == nil), (new.footer == nil) == (old.footer == nil) else { return refresh }
                if let header = new.header, header != old.header {
                    writeUpdate(text: header, into: &html) { html in
                        html.raw("target=\"section-")
                        html.pathSegment(new.identifier)
                        html.raw("-header\"")
                    }
                }
                if let footer = new.footer, footer != old.footer {
                    writeUpdate(text: footer, into: &html) { html in
                        html.raw("target=\"section-")
                        html.pathSegment(new.identifier)
                        html.raw("-footer\"")
                    }
                }
            }
        }
        return html.string
    }

    /// The element that has the client load the window again (Turbo 8's `refresh` action).
    static let refresh = "<turbo-stream action=\"refresh\"></turbo-stream>\n"

    /// ` target="row-…"`, the identifier written as the page writes its rows' ids.
    /// `<turbo-stream action="update" …><template>text</template></turbo-stream>`, its target
    /// attribute written by `target`.
    private static func writeUpdate(text: String, into html: inout HTMLWriter, target: (inout HTMLWriter) -> Void) {
        html.raw("<turbo-stream action=\"update\" ")
        target(&html)
        html.raw("><template>")
        html.text(text)
        html.raw("</template></turbo-stream>\n")
    }

    private static func writeTarget(_ id: String, into html: inout HTMLWriter) {
        html.raw(" target=\"row-")
        html.pathSegment(id)
        html.raw("\"")
    }

    private static func writeTemplate(_ content: [UInt8], into html: inout HTMLWriter) {
        html.raw("><template>")
        html.unsafeRaw(bytes: content)
        html.raw("</template></turbo-stream>\n")
    }
}
