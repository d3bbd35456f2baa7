import TableKit
import Testing

/// SGTableViewHelper style: an enum of rows with associated values, in sections with headers
/// and footers, configuring `ConfigurableCell`s with their typed data.
@Suite struct TableSectionTests {
    private enum SettingsRow: TableRow {
        case toggle(id: String, title: String, isOn: Bool)
        case value(title: String, value: String)

        func cellProvider(for indexPath: IndexPath) -> DataCellProvider {
            switch self {
            case .toggle(_, let title, let isOn):
                DataCellProvider(for: indexPath, cell: ToggleCell.self, data: (title, isOn))
            case .value(let title, let value):
                DataCellProvider(for: indexPath, cell: ValueCell.self, data: (title, value))
            }
        }

        var identifier: String? {
            if case .toggle(let id, _, _) = self { return id }
            return nil
        }
    }

    private struct SettingsController: SectionedTableController {
        var sections: [TableSection<SettingsRow>]
        var title: String { "Settings" }
    }

    private let settings = SettingsController(sections: [
        TableSection(
            header: "Connections", footer: "Radios & such",
            rows: [.toggle(id: "wifi", title: "Wi-Fi", isOn: true), .toggle(id: "bluetooth", title: "Bluetooth", isOn: false)]),
        TableSection(rows: [.value(title: "Theme", value: "Automatic")]),
        TableSection(header: "Empty", rows: []),
    ])

    @Test func sectionsAnswerTheDataSourceQuestions() {
        #expect(settings.numberOfSections == 3)
        #expect(settings.numberOfRows(inSection: 0) == 2)
        #expect(settings.numberOfRows(inSection: 2) == 0)
        #expect(settings.titleForHeader(inSection: 0) == "Connections")
        #expect(settings.titleForFooter(inSection: 0) == "Radios & such")
        #expect(settings.titleForHeader(inSection: 1) == nil)
        #expect(settings.titleForFooter(inSection: 1) == nil)
        #expect(settings.totalNumberOfRows == 3)
    }

    @Test func rowsUseTheirOwnIdentifierOrTheirPosition() {
        #expect(settings.identifier(forRowAt: IndexPath(row: 1, section: 0)) == "bluetooth")
        #expect(settings.identifier(forRowAt: IndexPath(row: 0, section: 1)) == "1-0")
        #expect(settings.indexPath(forRowWithIdentifier: "bluetooth") == IndexPath(row: 1, section: 0))
        #expect(settings.indexPath(forRowWithIdentifier: "1-0") == IndexPath(row: 0, section: 1))
        #expect(settings.indexPath(forRowWithIdentifier: "nope") == nil)
    }

    @Test func sectionsUseTheirOwnIdentifierOrTheirNumber() throws {
        let named = SettingsController(sections: [
            TableSection(identifier: "network", header: "Connections", rows: [.toggle(id: "wifi", title: "Wi-Fi", isOn: true)]),
            TableSection(rows: [.value(title: "Theme", value: "Automatic")]),
        ])
        #expect(named.identifier(forSection: 0) == "network")
        #expect(named.identifier(forSection: 1) == "1")
        let html = try named.renderedHTML(registry: ReuseRegistry(), selectionBase: nil)
        #expect(html.contains(#"<ul class="rows" id="section-network-rows" data-section="network">"#))
        #expect(html.contains(#"<ul class="rows" id="section-1-rows" data-section="1">"#))
    }

    @Test func eachCaseConfiguresItsOwnCellWithItsAssociatedValues() throws {
        let html = try settings.renderedHTML(registry: ReuseRegistry(), selectionBase: "/settings")
        #expect(
            html == """
                <section class="table-section" data-section="0" aria-labelledby="section-0-header">
                <h2 class="section-header" id="section-0-header">Connections</h2>
                <ul class="rows" id="section-0-rows" data-section="0">
                <li class="cell toggle" id="row-wifi"><span class="cell-title">Wi-Fi</span> <span class="cell-detail">On</span></li>
                <li class="cell toggle" id="row-bluetooth"><span class="cell-title">Bluetooth</span> <span class="cell-detail">Off</span></li>
                </ul>
                <p class="section-footer" id="section-0-footer">Radios &amp; such</p>
                </section>
                <section class="table-section" data-section="1">
                <ul class="rows" id="section-1-rows" data-section="1">
                <li class="cell value" id="row-1-0"><span class="cell-title">Theme</span> <span class="cell-detail">Automatic</span></li>
                </ul>
                </section>
                <section class="table-section" data-section="2" aria-labelledby="section-2-header">
                <h2 class="section-header" id="section-2-header">Empty</h2>
                <ul class="rows" id="section-2-rows" data-section="2">
                </ul>
                </section>

                """)
    }

    @Test func aDefaultRowHasNoIdentifier() {
        struct Plain: TableRow {
            func cellProvider(for indexPath: IndexPath) -> DataCellProvider { DataCellProvider(for: indexPath) { (_: TitleCell) in } }
        }
        #expect(Plain().identifier == nil)
    }
}
