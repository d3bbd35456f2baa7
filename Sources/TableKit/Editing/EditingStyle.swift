/// What a row's editing control does, as `UITableViewCell.EditingStyle`: in editing mode a row
/// shows a delete control (``delete``), an insert control (``insert``), or none.
public enum EditingStyle: String, Sendable, CaseIterable {
    case none
    case delete
    case insert
}
