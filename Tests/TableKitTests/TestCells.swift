import TableKit

// Cells shared by the suites. Each keeps its row's state in stored properties and resets it
// in prepareForReuse, as a real cell must.

/// A class cell with a title.
final class TitleCell: TableViewCell {
    var title = ""

    override func prepareForReuse() {
        title = ""
    }

    override func render(into html: inout HTMLWriter) throws {
        html.element("span", class: "cell-title", text: title)
    }
}

/// A class cell whose subtitle only some rows set: the state that must not leak into the next row.
/// It also counts how often it was prepared for reuse (never reset: that is what it measures).
final class DetailCell: TableViewCell {
    var title = ""
    var subtitle: String?
    private(set) var timesPreparedForReuse = 0

    override func prepareForReuse() {
        title = ""
        subtitle = nil
        timesPreparedForReuse += 1
    }

    override func render(into html: inout HTMLWriter) throws {
        html.element("span", class: "cell-title", text: title)
        if let subtitle {
            html.raw(" ")
            html.element("span", class: "cell-subtitle", text: subtitle)
        }
    }
}

/// A ``ConfigurableCell`` over a tuple, SGTableViewHelper style.
final class ToggleCell: TableViewCell, ConfigurableCell {
    var setting: (title: String, isOn: Bool)?

    func configure(with data: (title: String, isOn: Bool)) {
        setting = data
    }

    override func prepareForReuse() {
        setting = nil
    }

    override func render(into html: inout HTMLWriter) throws {
        guard let setting else { return }
        html.element("span", class: "cell-title", text: setting.title)
        html.raw(" ")
        html.element("span", class: "cell-detail", text: setting.isOn ? "On" : "Off")
    }
}

/// A ``ConfigurableCell`` with a title and a value.
final class ValueCell: TableViewCell, ConfigurableCell {
    var pair: (title: String, value: String)?

    func configure(with data: (title: String, value: String)) {
        pair = data
    }

    override func prepareForReuse() {
        pair = nil
    }

    override func render(into html: inout HTMLWriter) throws {
        guard let pair else { return }
        html.element("span", class: "cell-title", text: pair.title)
        html.raw(" ")
        html.element("span", class: "cell-detail", text: pair.value)
    }
}

/// A cell whose ``render(into:)`` always fails, for error paths.
final class FailingCell: TableViewCell {
    struct Failure: Error, Equatable {}

    override func render(into html: inout HTMLWriter) throws {
        html.raw("half a row")
        throw Failure()
    }
}

/// The SubtitleCell prototype that `Public/prototypes/SubtitleCell.html` ships, plus an optional detail.
let subtitlePrototype = """
    <a class="cell-link" href="{{href}}"><span class="cell-title">{{name}}</span>\
    {{#role}} <span class="cell-subtitle">{{role}}</span>{{/role}}</a>
    """

/// TableKit's index path, not Foundation's: files that import Foundation see both.
typealias IndexPath = TableKit.IndexPath

/// A class cell that writes its row's link several ways: its own selection (twice), and
/// selections it makes itself for another row, another base, and the same row spelled anew. Whatever the renderer copies must be byte for byte what `write(into:)` writes.
final class LinkEchoCell: TableViewCell {
    var otherIdentifier = ""

    override func render(into html: inout HTMLWriter) throws {
        html.openSelectionLink(selection)
        html.closeSelectionLink(selection)
        html.raw("|")
        selection?.write(into: &html)
        html.raw("|")
        if let selection {
            RowSelection(base: selection.base, identifier: otherIdentifier).write(into: &html)
            html.raw("|")
            RowSelection(base: selection.base + "/x", identifier: selection.identifier).write(into: &html)
            html.raw("|")
            RowSelection(base: String(selection.base.reversed().reversed()), identifier: String(selection.identifier.reversed().reversed()))
                .write(into: &html)
        }
    }
}

/// A class cell that empties the writer in the middle of its row, then writes its link: the
/// encoded identifier the table wrote is gone, and must not be copied from where it was.
final class EmptyingCell: TableViewCell {
    var emptying: (inout HTMLWriter) -> Void = { $0.removeAll() }

    override func render(into html: inout HTMLWriter) throws {
        emptying(&html)
        html.raw("[")
        selection?.write(into: &html)
        html.raw("]")
    }
}
