import TableKit
import Testing

@Suite struct IndexPathTests {
    @Test func orderIsSectionThenRow() {
        #expect(IndexPath(row: 9, section: 0) < IndexPath(row: 0, section: 1))
        #expect(IndexPath(row: 1, section: 1) < IndexPath(row: 2, section: 1))
        #expect(!(IndexPath(row: 2, section: 1) < IndexPath(row: 2, section: 1)))
        #expect([IndexPath(row: 0, section: 2), IndexPath(row: 5, section: 0)].sorted().first == IndexPath(row: 5, section: 0))
    }

    @Test func descriptionIsSectionThenRow() {
        #expect(IndexPath(row: 4, section: 2).description == "[2, 4]")
    }
}
