import TableKit
import Testing

@Suite struct TableLayoutTests {
    /// A slice as a test can spell it out (``TableLayout/Slice``'s initializer is internal).
    private struct Slice: Equatable {
        var section: Int
        var rows: Range<Int>
        var sectionStart: Int
        var includesStart: Bool
        var includesEnd: Bool
    }

    private func slices(_ window: Range<Int>) -> [Slice] {
        layout.slices(in: window).map {
            Slice(section: $0.section, rows: $0.rows, sectionStart: $0.sectionStart, includesStart: $0.includesStart, includesEnd: $0.includesEnd)
        }
    }

    /// Sections of 3, 0, 2, 0 and 4 rows: flat rows 0-2, 3-4 and 5-8, with empty sections standing at 3 and 5.
    private let layout = TableLayout(StubController(sections: [3, 0, 2, 0, 4].map { .init(rows: $0) }) { _ in fatalError("not rendered") })

    @Test func sectionStartsAndTotals() {
        #expect(layout.sectionStarts == [0, 3, 3, 5, 5, 9])
        #expect(layout.numberOfSections == 5)
        #expect(layout.totalNumberOfRows == 9)
    }

    @Test func aNegativeRowCountCountsAsEmpty() {
        let layout = TableLayout(StubController(sections: [.init(rows: 2), .init(rows: -5), .init(rows: 1)]) { _ in fatalError() })
        #expect(layout.sectionStarts == [0, 2, 2, 3])
    }

    @Test func theWholeTableIsEverySectionWhole() {
        #expect(
            slices(0..<9) == [
                Slice(section: 0, rows: 0..<3, sectionStart: 0, includesStart: true, includesEnd: true),
                Slice(section: 1, rows: 0..<0, sectionStart: 3, includesStart: true, includesEnd: true),
                Slice(section: 2, rows: 0..<2, sectionStart: 3, includesStart: true, includesEnd: true),
                Slice(section: 3, rows: 0..<0, sectionStart: 5, includesStart: true, includesEnd: true),
                Slice(section: 4, rows: 0..<4, sectionStart: 5, includesStart: true, includesEnd: true),
            ])
    }

    @Test func aWindowAcrossASectionBoundaryTakesTheEndOfOneAndTheStartOfTheNext() {
        #expect(
            slices(2..<7) == [
                Slice(section: 0, rows: 2..<3, sectionStart: 0, includesStart: false, includesEnd: true),
                Slice(section: 1, rows: 0..<0, sectionStart: 3, includesStart: true, includesEnd: true),
                Slice(section: 2, rows: 0..<2, sectionStart: 3, includesStart: true, includesEnd: true),
                Slice(section: 3, rows: 0..<0, sectionStart: 5, includesStart: true, includesEnd: true),
                Slice(section: 4, rows: 0..<2, sectionStart: 5, includesStart: true, includesEnd: false),
            ])
    }

    @Test func aWindowInsideOneSectionIsOneSlice() {
        #expect(slices(6..<8) == [Slice(section: 4, rows: 1..<3, sectionStart: 5, includesStart: false, includesEnd: false)])
    }

    @Test func anEmptySectionGoesWithTheWindowThatStartsAtIt() {
        // A window ending where an empty section stands leaves it to the next window…
        #expect(layout.slices(in: 0..<3).map(\.section) == [0])
        #expect(layout.slices(in: 3..<5).map(\.section) == [1, 2])
        // …and the next one starts with it.
        #expect(layout.slices(in: 5..<9).map(\.section) == [3, 4])
    }

    /// Every partition of the rows into pages shows each row once and each empty section once.
    @Test(arguments: [1, 2, 3, 4, 5, 9, 10])
    func pagesCoverEveryRowAndEverySectionExactlyOnce(pageSize: Int) {
        var rowsSeen: [IndexPath] = []
        var emptySectionsSeen: [Int] = []
        for start in stride(from: 0, to: layout.totalNumberOfRows, by: pageSize) {
            for slice in layout.slices(in: start..<min(start + pageSize, layout.totalNumberOfRows)) {
                if slice.rows.isEmpty { emptySectionsSeen.append(slice.section) }
                rowsSeen += slice.rows.map { IndexPath(row: $0, section: slice.section) }
            }
        }
        let allRows = [(0, 3), (2, 2), (4, 4)].flatMap { section, count in (0..<count).map { IndexPath(row: $0, section: section) } }
        #expect(rowsSeen == allRows)
        #expect(emptySectionsSeen == [1, 3])
    }

    @Test func aTrailingEmptySectionShowsWithTheLastPage() {
        let layout = TableLayout(StubController(sections: [.init(rows: 2), .init(rows: 0)]) { _ in fatalError() })
        #expect(layout.slices(in: 0..<1).map(\.section) == [0])
        #expect(layout.slices(in: 1..<2).map(\.section) == [0, 1])
    }

    @Test func aTableOfOnlyEmptySectionsShowsThemAll() {
        let layout = TableLayout(StubController(sections: [.init(rows: 0), .init(rows: 0)]) { _ in fatalError() })
        #expect(layout.totalNumberOfRows == 0)
        #expect(layout.slices(in: 0..<0).map(\.section) == [0, 1])
    }

    @Test func aTableWithNoSectionsHasNoSlices() {
        let layout = TableLayout(StubController(sections: []) { _ in fatalError() })
        #expect(layout.numberOfSections == 0)
        #expect(layout.totalNumberOfRows == 0)
        #expect(layout.slices(in: 0..<0).isEmpty)
    }

    @Test func aWindowPastTheEndIsEmpty() {
        #expect(layout.slices(in: 20..<30).isEmpty)
    }
}
