/// The cell that renders a prototype: a compiled template filled from the row's data.
///
/// The registry makes one per prototype identifier as needed; the pool recycles them like any cell.
public final class PrototypeCell: TableViewCell {
    /// The template this cell fills; set once when the registry makes the cell.
    @exclusivity(unchecked) public internal(set) var template: PrototypeTemplate?
    /// The identifier the prototype was registered under.
    public internal(set) var prototypeIdentifier = ""
    /// The row's data, until the next reuse.
    @exclusivity(unchecked) public var data: (any PrototypeData)?

    public override class var reuseIdentifier: String { "PrototypeCell" }

    public override func prepareForReuse() {
        data = nil
    }

    public override func render(into html: inout HTMLWriter) throws {
        guard let template else { return }
        if let data {
            template.render(into: &html, data: data, selection: selection)
        } else {
            template.render(into: &html, data: [String: String](), selection: selection)
        }
    }
}
