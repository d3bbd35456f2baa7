import Cellar
import TableKit

/// `/settings`: grouped sections with header and footer titles, built from an enum whose cases
/// carry each row's data — SGTableViewHelper's `SGTableViewHelperRow`, with three cell types.
public enum SettingsRow: TableRow, Sendable {
    case toggle(id: String, title: String, isOn: Bool)
    case value(id: String, title: String, value: String)
    case link(id: String, title: String, destination: String)

    public var identifier: String? {
        switch self {
        case .toggle(let id, _, _), .value(let id, _, _), .link(let id, _, _): id
        }
    }

    public func cellProvider(for indexPath: IndexPath) -> DataCellProvider {
        switch self {
        case .toggle(_, let title, let isOn):
            DataCellProvider(for: indexPath, cell: ToggleCell.self, data: ToggleCell.CellData(title: title, isOn: isOn))
        case .value(_, let title, let value):
            DataCellProvider(prototype: "ValueCell", for: indexPath, data: ["title": title, "value": value])
        case .link(_, let title, let destination):
            DataCellProvider(for: indexPath, cell: LinkCell.self, data: LinkCell.CellData(title: title, destination: destination))
        }
    }

    var detail: RowDetail {
        switch self {
        case .toggle(_, let title, let isOn): RowDetail(title: title, fields: [.init("Setting", title), .init("State", isOn ? "On" : "Off")])
        case .value(_, let title, let value): RowDetail(title: title, fields: [.init("Setting", title), .init("Value", value)])
        case .link(_, let title, let destination):
            RowDetail(title: title, fields: [.init("Setting", title), .init("Opens", destination, link: destination)])
        }
    }
}

extension SettingsRow: Encodable {
    private enum CodingKeys: String, CodingKey { case kind, title, isOn, value, destination }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .toggle(_, let title, let isOn):
            try container.encode("toggle", forKey: .kind)
            try container.encode(title, forKey: .title)
            try container.encode(isOn, forKey: .isOn)
        case .value(_, let title, let value):
            try container.encode("value", forKey: .kind)
            try container.encode(title, forKey: .title)
            try container.encode(value, forKey: .value)
        case .link(_, let title, let destination):
            try container.encode("link", forKey: .kind)
            try container.encode(title, forKey: .title)
            try container.encode(destination, forKey: .destination)
        }
    }
}

/// A setting that is on or off, shown as a switch (SGConfigurableCell with a typed `CellData`).
public final class ToggleCell: TableViewCell, ConfigurableCell {
    public struct CellData: Sendable {
        public var title: String
        public var isOn: Bool
    }

    var data: CellData?

    public func configure(with data: CellData) { self.data = data }
    public override func prepareForReuse() { data = nil }

    public override func render(into html: inout HTMLWriter) throws {
        guard let data else { return }
        html.openSelectionLink(selection)
        html.element("span", class: "cell-title", text: data.title)
        html.raw(" <span class=\"switch\"")
        html.raw(
            data.isOn
                ? " data-on=\"true\"><span class=\"visually-hidden\">On</span>" : " data-on=\"false\"><span class=\"visually-hidden\">Off</span>")
        html.raw("</span>")
        html.closeSelectionLink(selection)
    }
}

/// A setting that leads somewhere else.
public final class LinkCell: TableViewCell, ConfigurableCell {
    public struct CellData: Sendable {
        public var title: String
        public var destination: String
    }

    var data: CellData?

    public func configure(with data: CellData) { self.data = data }
    public override func prepareForReuse() { data = nil }

    public override func render(into html: inout HTMLWriter) throws {
        guard let data else { return }
        html.raw("<a class=\"cell-link\"")
        html.urlAttribute("href", data.destination)
        html.raw(">")
        html.element("span", class: "cell-title", text: data.title)
        html.raw("</a>")
    }
}

public struct SettingsController: SectionedTableController {
    public let title = "Settings"
    public let sections: [TableSection<SettingsRow>]

    public init() {
        sections = SettingsController.defaultSections
    }

    /// The sections are constants of this build (which every validator already names).
    public var contentVersion: String? { "defaults" }

    public func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { sections[indexPath.section].rows[indexPath.row] }
    public func detail(forRowAt indexPath: IndexPath) -> RowDetail? { sections[indexPath.section].rows[indexPath.row].detail }

    static let defaultSections: [TableSection<SettingsRow>] = [
        TableSection(
            header: "Cellar", footer: "The cellar keeps bottles between 10 °C and 14 °C.",
            rows: [
                .toggle(id: "climate", title: "Climate control", isOn: true),
                .value(id: "temperature", title: "Temperature", value: "12 °C"),
                .value(id: "humidity", title: "Humidity", value: "70 %"),
                .toggle(id: "lights", title: "Lights on the stairs", isOn: false),
            ]),
        TableSection(
            header: "Notifications", footer: "Alerts are sent when a bottle reaches its drinking window.",
            rows: [
                .toggle(id: "alerts", title: "Drinking-window alerts", isOn: true),
                .value(id: "quiet", title: "Quiet hours", value: "22:00 – 07:00"),
                .link(id: "people", title: "Who gets alerts", destination: "/people"),
            ]),
        TableSection(
            header: "About", footer: "Rendered by recycled cells: look at /metrics to see them reused.",
            rows: [
                .value(id: "version", title: "Version", value: "0.1.0"),
                .link(id: "catalog", title: "Browse the catalog", destination: "/catalog"),
                .value(id: "owner", title: "Owner", value: "Ada & \"the <cellar> team\""),
            ]),
    ]
}
