import ByteWriters

/// The cell that renders a prototype: a compiled template filled from the row's data.
///
/// The registry makes one per prototype identifier as needed; the pool recycles them like any cell.
public final class PrototypeCell: TableViewCell {
    /// The template this cell fills, fixed when the table view makes the cell.
    public var template: PrototypeTemplate? { hasTemplate ? compiled : nil }
    // Always a template (an empty one when the cell has none), which rendering reads as it is;
    // `template` is the optional view of it. BENCHMARKS.md has why rendering wants it so.
    private let compiled: PrototypeTemplate
    private let hasTemplate: Bool
    /// The identifier the prototype was registered under.
    public let prototypeIdentifier: String
    /// The row's data, until the next reuse, when the cell was configured by
    /// ``DataCellProvider/dequeueConfiguredCell(from:selection:)``. A table's render lends each
    /// row's data to the template instead and keeps none: there it stays `nil`.
    public var data: (any PrototypeData)? {
        get { hasData ? dataStorage.pointee : nil }
        set {
            dataStorage.pointee = newValue ?? NoPrototypeData()
            hasData = newValue != nil
        }
    }
    // The data lives in memory the cell owns, as a non-optional existential, so rendering opens
    // it in place through the pointer instead of copying it per row.
    private let dataStorage: UnsafeMutablePointer<any PrototypeData>
    private var hasData = false
    // The template's keys matched against one data type's slots (`PrototypeTemplate.slots(for:)`),
    // kept for the next row of the same type: a cell shows one type of data nearly always. In
    // memory the cell owns, one entry per key.
    private var slotsType: ObjectIdentifier?
    private let slots: UnsafeMutableBufferPointer<Int32>

    public override class var reuseIdentifier: String { "PrototypeCell" }

    /// What a cell without a template holds: a template that writes nothing.
    private static let noTemplate: PrototypeTemplate = {
        do { return try PrototypeTemplate("") } catch { preconditionFailure("an empty template compiles") }
    }()

    /// A cell with no template: renders nothing.
    public required init() {
        compiled = PrototypeCell.noTemplate
        hasTemplate = false
        prototypeIdentifier = ""
        dataStorage = .allocate(capacity: 1)
        dataStorage.initialize(to: NoPrototypeData())
        slots = .allocate(capacity: 0)
    }

    init(template: PrototypeTemplate, identifier: String) {
        compiled = template
        hasTemplate = true
        prototypeIdentifier = identifier
        dataStorage = .allocate(capacity: 1)
        dataStorage.initialize(to: NoPrototypeData())
        slots = .allocate(capacity: template.keys.count)
        slots.initialize(repeating: -1)
    }

    deinit {
        dataStorage.deinitialize(count: 1)
        dataStorage.deallocate()
        slots.deallocate()
    }

    public override func prepareForReuse() {
        // The previous row's value stays in the storage until the next row's replaces it (the
        // table view configures a cell right after this), which saves an assignment per row.
        hasData = false
    }

    /// Stores a row's data: one assignment of the existential, no optional wrapped and unwrapped.
    func replaceData(with newData: some PrototypeData) {
        dataStorage.pointee = newData
        hasData = true
    }

    public override func render(into html: inout HTMLWriter) throws {
        guard hasData, hasTemplate else { return render(lending: NoPrototypeData(), into: &html) }
        dataStorage.pointee.fill(compiled, into: &html, cell: self)
    }

    /// Renders `template` filled from `data`, its values written by slot where the data type has them.
    fileprivate func render<Data: PrototypeData>(_ template: PrototypeTemplate, data: Data, into html: inout HTMLWriter) {
        let dataType = ObjectIdentifier(Data.self)
        if slotsType != dataType {
            _ = slots.update(fromContentsOf: template.slots(for: Data.self))
            slotsType = dataType
        }
        template.render(into: &html, data: data, selection: selection, slots: UnsafePointer(slots.baseAddress))
    }

    /// Renders the template filled from `data`, which the cell does not keep (its `data` is `nil`
    /// afterwards): the table's render of a prototype row, with no copy of the row's data.
    func render(lending data: some PrototypeData, into html: inout HTMLWriter) {
        hasData = false
        guard hasTemplate else { return }
        render(compiled, data: data, into: &html)
    }
}

extension PrototypeData {
    /// Opens the existential once and hands `cell`'s template `self` as it is stored.
    // `mutating` only so that a call through the cell's pointer opens the existential in place
    // (a non-mutating call copies it out first); it changes nothing.
    fileprivate mutating func fill(_ template: PrototypeTemplate, into html: inout HTMLWriter, cell: PrototypeCell) {
        cell.render(template, data: self, into: &html)
    }
}

/// What an empty prototype cell shows: every value missing.
private struct NoPrototypeData: PrototypeData {
    func prototypeValue(forKey key: String) -> PrototypeValue { .missing }
}
