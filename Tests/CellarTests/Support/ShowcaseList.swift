import Showcase
import Testing

/// The HTTP tests run one after another: several measure the process's memory or the registry's
/// counters, which requests of a test running alongside would disturb.
@Suite(.serialized) struct CellarHTTPTests {}

/// What a showcase list looks like when served by ``TestServer/showcase(people:listbench:big:hostilePayloads:threads:)``
/// with its default sizes: 300 people, 400 listbench people, 500 big rows.
struct ShowcaseList: Sendable, CustomTestStringConvertible {
    struct SectionTitles: Sendable, Equatable {
        var header: String?
        var footer: String?
    }

    var path: String
    var title: String
    /// Rows on the first page with the default limit.
    var firstPageRows: Int
    var total: Int
    /// The default page size; nil when unpaged (a page is then every row).
    var defaultLimit: Int?
    var maxLimit: Int?
    var sections: [SectionTitles]
    var cells: Set<String>
    /// A row with a detail route, by identifier; nil when rows have no detail.
    var detailRow: String?
    var showsLoadingPlaceholder = false
    /// Whether the detail is a list of its own (`ShowcaseRolesTests`), not a row's fields.
    var detailIsAList = false

    var testDescription: String { path }
    var jsonPath: String { path == "/" ? "/index.json" : path + ".json" }

    static let people = ShowcaseList(
        path: "/people", title: "People", firstPageRows: 50, total: 300, defaultLimit: 50, maxLimit: 500,
        sections: [.init(header: "Everyone", footer: "300 people")], cells: ["EngineerCell", "SubtitleCell"], detailRow: "1")

    static let all: [ShowcaseList] = [
        ShowcaseList(
            path: "/", title: "Lists", firstPageRows: 13, total: 13, defaultLimit: nil, maxLimit: nil,
            sections: [.init(footer: "Every list also answers as JSON (add .json) and as a rows fragment (?fragment=rows).")],
            cells: ["ListLinkCell"], detailRow: nil),
        people,
        ShowcaseList(
            path: "/roles", title: "Roles", firstPageRows: 4, total: 4, defaultLimit: 50, maxLimit: 500, sections: [.init()],
            cells: ["RoleCell"], detailRow: "engineer", detailIsAList: true),
        ShowcaseList(
            path: "/settings", title: "Settings", firstPageRows: 10, total: 10, defaultLimit: 100, maxLimit: 100,
            sections: [
                .init(header: "Cellar", footer: "The cellar keeps bottles between 10 °C and 14 °C."),
                .init(header: "Notifications", footer: "Alerts are sent when a bottle reaches its drinking window."),
                .init(header: "About", footer: "Rendered by recycled cells: look at /metrics to see them reused."),
            ], cells: ["ToggleCell", "ValueCell", "LinkCell"], detailRow: "climate"),
        ShowcaseList(
            path: "/catalog", title: "Catalog", firstPageRows: 25, total: 25, defaultLimit: 100, maxLimit: 200,
            sections: [.init(footer: "Prices include the cellar’s corkage & care.")], cells: ["ProductCell", "NoteCell"],
            detailRow: "barolo-riserva"),
        ShowcaseList(
            path: "/reports", title: "Reports", firstPageRows: 6, total: 6, defaultLimit: 50, maxLimit: 500,
            sections: [.init(header: "This month")], cells: ["ValueCell"], detailRow: "1", showsLoadingPlaceholder: true),
        ShowcaseList(
            path: "/big", title: "Big", firstPageRows: 500, total: 500, defaultLimit: nil, maxLimit: nil,
            sections: [.init(header: "Generated rows", footer: "Streamed in chunks: the server never holds the whole page.")],
            cells: ["BigRowCell"], detailRow: "500"),
        ShowcaseList(
            path: "/xss", title: "Hostile data", firstPageRows: 50, total: HostileListController.payloads.count,
            defaultLimit: 50, maxLimit: 1000,
            sections: [
                .init(header: "Payloads <img src=x onerror=alert('header')>", footer: "Footer \"><script>alert('footer')</script>")
            ], cells: ["SubtitleCell", "LinkCell"],
            detailRow: "3-" + String(HostileListController.payloads[3].prefix(12))),
        ShowcaseList(
            path: "/tasting-notes", title: "Tasting notes", firstPageRows: 1, total: 1, defaultLimit: 50, maxLimit: 500, sections: [.init()],
            cells: ["TastingNoteCell"], detailRow: "1"),
        ShowcaseList(
            path: "/to-drink", title: "To drink", firstPageRows: 3, total: 3, defaultLimit: nil, maxLimit: nil,
            sections: [.init(footer: "Kept in memory until the server restarts; at most 200 bottles.")], cells: ["BottleCell"], detailRow: nil),
        ShowcaseList(
            path: "/sensors", title: "Sensors", firstPageRows: 6, total: 6, defaultLimit: 50, maxLimit: 500,
            sections: [.init(header: "Readings", footer: "A reading changes every second while this page is open.")],
            cells: ["ValueCell"], detailRow: "co2"),
        ShowcaseList(
            path: "/listbench", title: "Listbench", firstPageRows: 100, total: 400, defaultLimit: 100, maxLimit: 10_000, sections: [.init()],
            cells: ["EngineerCell", "SubtitleCell"], detailRow: "7"),
    ]
}
