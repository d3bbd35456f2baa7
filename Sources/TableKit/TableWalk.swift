/// Walks a table's sections and rows in order, or a window of them for one page, and hands each
/// to a ``TableWalkSink``; it can stop once the sink holds enough bytes and carry on later. That
/// is what lets a million rows stream in memory bounded by the chunk size, and what makes the
/// HTML page and its JSON twin list the same rows under the same sections.
///
/// ```swift
/// var walk = TableWalk(controller: controller, window: 0..<50)
/// while try !walk.walk(into: &sink, pausingAt: 64 * 1024) {
///     send(sink.takeBytes())  // however the sink hands its bytes over
/// }
/// ```
///
/// A section's identifier, header and footer are asked for once, when it opens; a row's cell provider and
/// identifier once, when it is written. ``walkRow(at:of:into:)`` writes one row alone, the same way.
public struct TableWalk {
    public let controller: any TableController
    public let layout: TableLayout
    /// The flat rows walked (all of them unless paging), clamped to the table's.
    public let window: Range<Int>

    /// A section as the walk hands it to its sink: its number, its identifier
    /// (``TableController/identifier(forSection:)``) and its titles.
    public struct Section {
        public var index: Int
        public var identifier: String
        public var header: String?
        public var footer: String?

        /// A section; its identifier is its number unless one is given.
        public init(index: Int, identifier: String? = nil, header: String?, footer: String?) {
            self.index = index
            self.identifier = identifier ?? String(index)
            self.header = header
            self.footer = footer
        }
    }

    // Inlinable, with the state it reads: a sink in another module (the JSON twin's) gets a walk
    // specialised for it, with no generic calls per row.
    @usableFromInline enum Phase {
        /// Looking for the next section the window covers, from `section` on.
        case sectionOpen
        case rows(TableLayout.Slice, Section)
        case sectionClose(Section)
        case finished
    }

    /// The next section to look at (each section's part of the window is worked out when the walk
    /// reaches it: no list of them is made).
    @usableFromInline var section = 0
    @usableFromInline var row = 0
    @usableFromInline var phase = Phase.sectionOpen

    public init(controller: any TableController, layout: TableLayout? = nil, window: Range<Int>? = nil) {
        self.controller = controller
        let layout = layout ?? TableLayout(controller)
        self.layout = layout
        let total = layout.totalNumberOfRows
        let window = window.map { $0.clamped(to: 0..<total) } ?? 0..<total
        self.window = window
    }

    /// Whether every section and row of the window has been handed to the sink.
    @inlinable public var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    /// Walks until done, or until the sink holds `byteLimit` bytes or more (checked after each
    /// row and section). Returns whether it is done. A throwing controller or cell stops the
    /// walk; the error says why.
    @inlinable public mutating func walk<Sink: TableWalkSink & ~Copyable>(into sink: inout Sink, pausingAt byteLimit: Int = .max) throws -> Bool {
        while true {
            switch phase {
            case .finished:
                return true
            case .sectionOpen:
                guard section < layout.numberOfSections else {
                    phase = .finished
                    continue
                }
                guard let slice = layout.slice(section, in: window) else {
                    section += 1
                    continue
                }
                let opened = Section(
                    index: section, identifier: controller.identifier(forSection: section),
                    header: controller.titleForHeader(inSection: section), footer: controller.titleForFooter(inSection: section))
                sink.openSection(opened)
                row = slice.rows.lowerBound
                phase = .rows(slice, opened)
            case .rows(let slice, let opened):
                // The controller is opened once for the run of rows: each row then calls it
                // directly, not through the existential's box.
                row = try walkRows(of: controller, in: slice, from: row, into: &sink, pausingAt: byteLimit)
                guard row >= slice.rows.upperBound else { return false }
                phase = .sectionClose(opened)
            case .sectionClose(let opened):
                sink.closeSection(opened)
                section += 1
                phase = .sectionOpen
            }
            if sink.byteCount >= byteLimit { return isFinished }
        }
    }

    /// Hands the rows of `slice` from `first` on to the sink until the slice ends or the sink
    /// holds `byteLimit` bytes; returns the next row to walk.
    // Inlined into `walk`: a generic function over the opened controller would not be
    // specialised for the sink, whose calls per row would then go through its witness table.
    @inlinable @inline(__always) func walkRows<Controller: TableController, Sink: TableWalkSink & ~Copyable>(
        of controller: Controller, in slice: TableLayout.Slice, from first: Int, into sink: inout Sink, pausingAt byteLimit: Int
    ) throws -> Int {
        var row = first
        while row < slice.rows.upperBound {
            try Self.walkRow(at: IndexPath(row: row, section: slice.section), of: controller, into: &sink)
            row += 1
            if sink.byteCount >= byteLimit { break }
        }
        return row
    }

    /// Hands one row to `sink`, outside any walk: what a page or its JSON writes for the row at
    /// `indexPath`, for a change to that row alone.
    @inline(__always) public static func walkRow<Controller: TableController, Sink: TableWalkSink & ~Copyable>(
        at indexPath: IndexPath, of controller: Controller, into sink: inout Sink
    ) throws {
        let provider = controller.cellProvider(forRowAt: indexPath)
        try sink.writeRow(at: indexPath, identifier: controller.identifier(forRowAt: indexPath), provider: provider)
    }
}
