import MicroHTTP
import Showcase
import TableKit
import Testing

@testable import Cellar

/// A row as a live list keeps it, to send when it changes, is byte for byte the row the list's
/// page and its JSON twin hold: the walk into the page's own sink writes both.
@Suite struct SingleRowTests {
    // Not `/reports`: its items are dictionaries, whose keys two encodings may order differently.
    @Test(arguments: ["/people", "/listbench", "/settings", "/catalog", "/big", "/xss"])
    func aWatchedRowIsTheRowInThePageAndInTheJSON(path: String) throws {
        let app = App(publicDirectory: Repository.publicDirectory)
        try Showcase.install(in: app, peopleCount: 40, listbenchCount: 40, bigCount: 40)
        let router = app.makeRouter()
        let route = try #require(app.lists.first { $0.path == path })
        // The rows fragment has the rows without the page around them (a loading list's page has none).
        let page = try text(of: router.respond(to: Request(target: path + "?fragment=rows")))
        let json = try text(of: router.respond(to: Request(target: path + ".json")))

        // The rows as a live list keeps them, walked into the page's own sinks.
        let responder = ListResponder(app: app.snapshot())
        let request = try Request(target: path)
        var html: [Int: String] = [:]
        var objects: [Int: [String]] = [:]
        for format in [WatchFormat.turboStream, .json] {
            let version = try WindowVersion.render(route, request: request, format: format, responder: responder)
            for (section, items) in zip(version.sections, version.snapshot.sections) {
                for item in items {
                    let row = String(decoding: try #require(version.rows[item.id]), as: UTF8.self)
                    #expect(item.content == WindowVersion.digest(Array(row.utf8)))
                    if format == .json { objects[section.index, default: []].append(row) } else { html[section.index, default: ""] += row }
                }
            }
        }
        #expect(!html.isEmpty)
        for (section, rows) in html {
            #expect(
                page.contains("<ul class=\"rows\" id=\"section-\(section)-rows\" data-section=\"\(section)\">\n" + rows + "</ul>\n"),
                "section \(section)")
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
