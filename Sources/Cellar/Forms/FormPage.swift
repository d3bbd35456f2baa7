import ByteWriters
import MicroHTTP
import TableKit

/// A form as a page in the site's frame: its title, the error summary when a submission was
/// refused, and `<form method="post">` around the form's table — its sections and field cells
/// written by the same ``TableRenderer`` as a list's rows — and its submit button.
///
/// The form is `novalidate`: the browser does not stop a submission with its own bubbles, so every
/// mistake comes back from the server the same way, each on its field, with or without JavaScript.
/// The fields keep `required`, `min`, `max` and `maxlength`, which say what is expected.
struct FormPage {
    let title: String
    /// The route's pattern (`/notes/:id/edit`): the page's place in the navigation.
    let path: String
    /// Where the form posts: the URL it was asked for, without its fragment (nil: the page's URL).
    let action: String?
    let form: FormTable
    /// The message of each field at fault, by name.
    let errors: [String: String]
    /// Values the form posts beside its fields, as `<input type="hidden">` (the sign-in page's `next`).
    var hiddenFields: [(name: String, value: String)] = []

    func response(status: HTTPStatus, site: SiteLayout, registry: ReuseRegistry) throws -> Response {
        var html = HTMLWriter(capacity: 16 * 1024)
        // "Error: " first in the document's title, the first thing a screen reader says of the page.
        site.writeHead(title: errors.isEmpty ? title : "Error: " + title, currentPath: path, into: &html, mainClass: "page-view form-view")
        html.element("h1", text: title)
        html.raw("\n")
        try writeContent(into: &html, registry: registry)
        site.writeTail(title: title, currentPath: path, into: &html)
        // A form's page holds what someone typed: no cache keeps it.
        let headers: HTTPHeaders = ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"]
        return Response(status: status, headers: headers, body: .storage(html.takeStorage()))
    }

    /// What `<main>` holds below the title: the summary, then the form with its field cells and its
    /// button. The sign-in page writes it into a page of its own (``SignInPage``).
    func writeContent(into html: inout HTMLWriter, registry: ReuseRegistry) throws {
        writeSummary(into: &html)
        // An explicit action: without one the POST goes to the page's URL with its fragment
        // (`#field-wine`, after a summary's link), and the answer would open at that field, not at its summary.
        html.raw("<form class=\"form\" method=\"post\"")
        if let action { html.urlAttribute("action", action) }
        html.raw(" novalidate>\n")
        for hidden in hiddenFields {
            html.raw("<input type=\"hidden\"")
            html.attribute("name", hidden.name)
            html.attribute("value", hidden.value)
            html.raw(">\n")
        }
        var renderer = TableRenderer(controller: form, tableView: TableView(registry: registry), style: .cells)
        _ = try renderer.render(into: &html)
        html.raw("<div class=\"form-actions\"><button class=\"button\" type=\"submit\">")
        html.text(form.submitTitle)
        html.raw("</button></div>\n</form>\n")
    }

    /// `<div class="error-summary" role="alert">`: a heading and a link to each field at fault, in
    /// the form's order (a message for a name the form does not have is listed without a link).
    /// `role="alert"` has it read out as the page loads; `autofocus` puts the keyboard there, so
    /// the next Tab reaches its first link.
    private func writeSummary(into html: inout HTMLWriter) {
        let ordered = Self.ordered(errors, form: form)
        guard !ordered.isEmpty else { return }
        html.raw("<div class=\"error-summary\" role=\"alert\" aria-labelledby=\"error-summary-title\" tabindex=\"-1\" autofocus>\n")
        html.raw("<h2 id=\"error-summary-title\">")
        html.text(Self.summaryTitle(count: ordered.count))
        html.raw("</h2>\n<ul>\n")
        for error in ordered {
            html.raw("<li>")
            if error.isField {
                html.raw("<a href=\"#field-")
                html.pathSegment(error.name)
                html.raw("\">")
                html.text(error.message)
                html.raw("</a>")
            } else {
                html.text(error.message)
            }
            html.raw("</li>\n")
        }
        html.raw("</ul>\n</div>\n")
    }

    /// "1 field needs attention", "3 fields need attention".
    /// The URL `request` asked for, as it asked for it (path and query), for the form's `action`;
    /// nil for a path that would read as another host's (`//host/…`).
    static func action(of request: Request) -> String? {
        let path = request.rawPath ?? request.path
        guard path.hasPrefix("/"), !path.hasPrefix("//") else { return nil }
        guard let query = request.rawQuery else { return path }
        return path + "?" + query
    }

    static func summaryTitle(count: Int) -> String {
        count == 1 ? "1 field needs attention" : "\(count) fields need attention"
    }

    /// `errors` in the order of the form's fields, then those the form has no field for, by name.
    static func ordered(_ errors: [String: String], form: FormTable) -> [(name: String, message: String, isField: Bool)] {
        var ordered: [(name: String, message: String, isField: Bool)] = []
        var names = Set<String>()
        for field in form.fields {
            if let message = errors[field.name], names.insert(field.name).inserted { ordered.append((field.name, message, true)) }
        }
        for (name, message) in errors.sorted(by: { $0.key < $1.key }) where !names.contains(name) {
            ordered.append((name, message, false))
        }
        return ordered
    }
}
