import TableKit
import Testing

@Suite struct TableControllerTests {
    /// Only the three requirements without defaults.
    private struct MinimalController: TableController {
        var rows = 3
        var title: String { "Minimal" }
        func numberOfRows(inSection section: Int) -> Int { rows }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider { DataCellProvider(for: indexPath) { (_: TitleCell) in } }
    }

    private struct TwoSectionController: TableController {
        var rows: [Int]
        var title: String { "Two" }
        var numberOfSections: Int { rows.count }
        func numberOfRows(inSection section: Int) -> Int { rows[section] }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider { DataCellProvider(for: indexPath) { (_: TitleCell) in } }
    }

    @Test func defaultsDescribeOneSectionWithoutHeadersOrDetails() {
        let controller = MinimalController()
        #expect(controller.numberOfSections == 1)
        #expect(controller.titleForHeader(inSection: 0) == nil)
        #expect(controller.titleForFooter(inSection: 0) == nil)
        #expect(controller.detail(forRowAt: IndexPath(row: 0, section: 0)) == nil)
        #expect(controller.item(forRowAt: IndexPath(row: 0, section: 0)) == nil)
        #expect(controller.action == .render)
    }

    @Test func oneSectionIdentifiesRowsByPositionAndManyBySectionAndPosition() {
        #expect(MinimalController().identifier(forRowAt: IndexPath(row: 2, section: 0)) == "2")
        #expect(TwoSectionController(rows: [1, 2]).identifier(forRowAt: IndexPath(row: 1, section: 1)) == "1-1")
    }

    @Test func theDefaultLookupFindsRowsByIdentifier() {
        let single = MinimalController()
        #expect(single.indexPath(forRowWithIdentifier: "2") == IndexPath(row: 2, section: 0))
        #expect(single.indexPath(forRowWithIdentifier: "3") == nil)
        #expect(single.indexPath(forRowWithIdentifier: "") == nil)
        let double = TwoSectionController(rows: [1, 0, 2])
        #expect(double.indexPath(forRowWithIdentifier: "2-1") == IndexPath(row: 1, section: 2))
        #expect(double.indexPath(forRowWithIdentifier: "1-0") == nil)
    }

    @Test func rowsCountAcrossSections() {
        let controller = TwoSectionController(rows: [2, 0, 3])
        #expect(controller.totalNumberOfRows == 5)
        #expect(controller.indexPath(atFlatIndex: 0) == IndexPath(row: 0, section: 0))
        #expect(controller.indexPath(atFlatIndex: 1) == IndexPath(row: 1, section: 0))
        #expect(controller.indexPath(atFlatIndex: 2) == IndexPath(row: 0, section: 2))
        #expect(controller.indexPath(atFlatIndex: 4) == IndexPath(row: 2, section: 2))
        #expect(controller.indexPath(atFlatIndex: 5) == nil)
        #expect(controller.indexPath(atFlatIndex: -1) == nil)
        #expect(TwoSectionController(rows: []).totalNumberOfRows == 0)
    }

    @Test func actionsAndAlertsCompare() {
        #expect(ControllerAction.alert(Alert(.warning, "Low stock")) == .alert(Alert(.warning, "Low stock")))
        #expect(ControllerAction.alert(Alert(.warning, "Low stock")) != .alert(Alert(.error, "Low stock")))
        #expect(ControllerAction.redirect(to: "/a") != .redirect(to: "/b"))
        #expect(Alert.Style.warning.rawValue == "warning")
    }

    @Test func detailFieldsKeepTheirParts() {
        let detail = RowDetail(title: "Ada", fields: [RowDetail.Field("Email", "ada@example.com", link: "mailto:ada@example.com")])
        #expect(detail.fields.first?.label == "Email")
        #expect(detail.fields.first?.link == "mailto:ada@example.com")
        #expect(RowDetail.Field("Role", "Engineer").link == nil)
    }
}
