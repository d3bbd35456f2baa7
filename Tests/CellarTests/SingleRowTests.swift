import MicroHTTP
import Showcase
import TableKit
import Testing

@testable import Cellar

/// A row rendered alone, as a change to that row will be sent, is byte for byte the row the list's
/// page and its JSON twin hold: the same walk's sink call writes both.
@Suite struct SingleRowTests {
    // Not `/reports`: its items are dictionaries, whose keys two encodings may order differently.
    @Test(arguments: ["/people", "/listbench", "/settings", "/catalog", "/big", "/xss"])
    func aRowAloneIsTheRowInThePageAndInTheJSON(path: String) throws {
        let app = App(publicDirectory: Repository.publicDirectory)
        try Showcase.install(in: app, peopleCount: 40, listbenchCount: 40, bigCount: 40)
        let router = app.makeRouter()
        let route = try #require(app.lists.first { $0.path == path })
        // The rows fragment has the rows without the page around them (a loading list's page has none).
        let page = try text(of: router.respond(to: Request(target: path + "?fragment=rows")))
        let json = try text(of: router.respond(to: Request(target: path + ".json")))

        let request = try Request(target: path)
        let pageRequest = try PageRequest(query: request.query, paging: route.paging)
        let controller = try route.makeController(ListContext(request: request, listPath: route.path, page: pageRequest))
        let tableView = TableView(registry: app.registry, selectionBase: route.hasDetail ? route.href : nil)
        let renderer = TableRenderer(controller: controller, tableView: tableView)
        var html: [Int: String] = [:]
        var objects: [Int: [String]] = [:]
        for flat in Page(pageRequest, total: controller.totalNumberOfRows).window {
            let indexPath = try #require(controller.indexPath(atFlatIndex: flat))
            var writer = HTMLWriter()
            try renderer.renderRow(at: indexPath, into: &writer)
            html[indexPath.section, default: ""] += writer.string
            var sink = JSONTableSink(route: route, controller: controller, registry: app.registry)
            try sink.writeRow(at: indexPath)
            objects[indexPath.section, default: []].append(String(decoding: sink.encoder.writer.takeBytes(), as: UTF8.self))
        }
        #expect(!html.isEmpty)
        for (section, rows) in html {
            #expect(page.contains("<ul class=\"rows\" data-section=\"\(section)\">\n" + rows + "</ul>\n"), "section \(section)")
        }
        for (section, rows) in objects {
            #expect(json.contains("\"rows\":[" + rows.joined(separator: ",") + "]}"), "section \(section)")
            #expect(rows.allSatisfy { $0.hasPrefix("{\"id\":") && $0.hasSuffix("}") })
        }
    }

    private func text(of response: Response) throws -> String {
        guard let bytes = response.body.bufferedBytes else { throw Unexpected.streamedBody }
        return String(decoding: bytes, as: UTF8.self)
    }

    private enum Unexpected: Error { case streamedBody }
}
