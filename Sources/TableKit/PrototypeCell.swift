/// The cell that renders a prototype: a compiled template filled from the row's data.
///
/// The registry makes one per prototype identifier as needed; the pool recycles them like any cell.
public final class PrototypeCell: TableViewCell {
    /// The template this cell fills; set once when the registry makes the cell.
    public internal(set) var template: PrototypeTemplate?
    /// The identifier the prototype was registered under.
    public internal(set) var prototypeIdentifier = ""
    /// The row's data, until the next reuse.
    public var data: (any PrototypeData)?

    public override class var reuseIdentifier: String { "PrototypeCell" }

    public override func prepareForReuse() {
        data = nil
    }

    public override func render(into html: inout HTMLWriter) throws {
        guard let template else { return }
        template.render(into: &html, data: RowValues(cell: self))
    }

    /// The row's data, with the table's `id` and `href` in front.
    private struct RowValues: PrototypeData {
        let cell: PrototypeCell

        func prototypeValue(forKey key: String) -> PrototypeValue {
            switch key {
            case "id":
                if let selection = cell.selection { return .text(selection.identifier) }
            case "href":
                if let selection = cell.selection { return .selection(selection) }
            default:
                break
            }
            return cell.data?.prototypeValue(forKey: key) ?? .missing
        }
    }
}
