/// Where each section's rows fall when the list is counted as one run of rows, and which parts
/// of which sections a window of that run covers. Paging and the ``TableWalk`` (which writes a
/// page's HTML and its JSON) read a window through it, so they agree on what a page holds.
public struct TableLayout: Sendable {
    /// The first flat row index of each section, plus the total at the end.
    public let sectionStarts: [Int]

    public init(_ controller: some TableController) {
        var starts: [Int] = []
        let sections = controller.numberOfSections
        starts.reserveCapacity(sections + 1)
        var total = 0
        for section in 0..<sections {
            starts.append(total)
            total += max(0, controller.numberOfRows(inSection: section))
        }
        starts.append(total)
        sectionStarts = starts
    }

    public var numberOfSections: Int { sectionStarts.count - 1 }
    public var totalNumberOfRows: Int { sectionStarts[sectionStarts.count - 1] }

    /// The part of one section a window covers: rows as positions within the section.
    public struct Slice: Sendable, Equatable {
        public var section: Int
        public var rows: Range<Int>
        /// The flat index of the section's first row.
        public var sectionStart: Int
        /// Whether the window holds the section's first row (or the section is empty).
        public var includesStart: Bool
        /// Whether the window holds the section's last row (or the section is empty).
        public var includesEnd: Bool
    }

    /// The section slices a window of flat rows covers, in order. An empty section shows when
    /// the window reaches the point where it stands.
    public func slices(in window: Range<Int>) -> [Slice] {
        var slices: [Slice] = []
        for section in 0..<numberOfSections {
            if let slice = slice(section, in: window) { slices.append(slice) }
        }
        return slices
    }

    /// The part of `section` the window covers, or nil when it covers none of it.
    @usableFromInline func slice(_ section: Int, in window: Range<Int>) -> Slice? {
        let start = sectionStarts[section]
        let end = sectionStarts[section + 1]
        if start == end {
            let visible = start >= window.lowerBound && (start < window.upperBound || (start == window.upperBound && end == totalNumberOfRows))
            return visible ? Slice(section: section, rows: 0..<0, sectionStart: start, includesStart: true, includesEnd: true) : nil
        }
        let lower = max(start, window.lowerBound)
        let upper = min(end, window.upperBound)
        guard lower < upper else { return nil }
        return Slice(
            section: section, rows: (lower - start)..<(upper - start), sectionStart: start,
            includesStart: lower == start, includesEnd: upper == end)
    }
}
