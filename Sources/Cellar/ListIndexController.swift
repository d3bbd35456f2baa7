import ByteWriters
import TableKit

/// The index of an app's lists: itself a table controller, one row per mounted list.
struct ListIndexController: TableController {
    struct Entry: Sendable, Encodable {
        let title: String
        let path: String
        let summary: String
    }

    let title: String
    let entries: [Entry]
    /// The entries' summaries (their titles and paths are the site's navigation, already part of
    /// every validator).
    let contentVersion: String?

    static func version(of entries: [Entry]) -> String {
        var hash = StableHash()
        for entry in entries { hash.combine(entry.summary) }
        return String(hash.value, radix: 16)
    }

    func numberOfRows(inSection section: Int) -> Int { entries.count }

    func titleForFooter(inSection section: Int) -> String? {
        "Every list also answers as JSON (add .json) and as a rows fragment (?fragment=rows)."
    }

    func identifier(forRowAt indexPath: IndexPath) -> String {
        String(entries[indexPath.row].path.dropFirst())
    }

    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let entry = entries[indexPath.row]
        return DataCellProvider(for: indexPath) { (cell: ListLinkCell) in cell.entry = entry }
    }

    func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { entries[indexPath.row] }
}

/// A row of the index: the list's title as a link, its summary below.
final class ListLinkCell: TableViewCell {
    var entry: ListIndexController.Entry?

    override class var styleClass: String { "index" }

    override func prepareForReuse() { entry = nil }

    override func render(into html: inout HTMLWriter) throws {
        guard let entry else { return }
        html.raw("<a class=\"cell-link\"")
        html.urlAttribute("href", entry.path)
        html.raw(">")
        html.element("span", class: "cell-title", text: entry.title)
        if !entry.summary.isEmpty {
            html.raw(" ")
            html.element("span", class: "cell-subtitle", text: entry.summary)
        }
        html.raw("</a>")
    }
}
