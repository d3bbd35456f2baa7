import Cellar
import TableKit

/// `/reports`: a list that takes a moment to compute, so its page first shows a loading
/// placeholder that the browser fills with the rows fragment (SwiftCleanTools' loading state).
public struct ReportsController: TableController {
    let isFragmentOrData: Bool

    public init(context: ListContext) {
        isFragmentOrData =
            context.query["fragment"] != nil || context.request.prefersJSON || context.request.path.hasSuffix(".json")
            || context.request.headers["HX-Request"] != nil
    }

    static let reports: [(String, String)] = [
        ("Bottles in the cellar", "1,284"), ("Ready to drink", "212"), ("Past their peak", "9"), ("Average age", "7.4 years"),
        ("Most common region", "Burgundy"), ("Cheese pairings logged", "3,017"),
    ]

    public var action: ControllerAction { isFragmentOrData ? .render : .loading(message: "Counting the bottles…") }
    public func numberOfRows(inSection section: Int) -> Int { Self.reports.count }
    public func titleForHeader(inSection section: Int) -> String? { "This month" }
    public func identifier(forRowAt indexPath: IndexPath) -> String { String(indexPath.row + 1) }

    public func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let report = Self.reports[indexPath.row]
        return DataCellProvider(prototype: "ValueCell", for: indexPath, data: ["title": report.0, "value": report.1])
    }

    public func item(forRowAt indexPath: IndexPath) -> (any Encodable)? {
        ["title": Self.reports[indexPath.row].0, "value": Self.reports[indexPath.row].1]
    }

    public func detail(forRowAt indexPath: IndexPath) -> RowDetail? {
        let report = Self.reports[indexPath.row]
        return RowDetail(title: report.0, fields: [.init("Value", report.1)])
    }
}
