import Cellar
import Foundation
import HTTPTestSupport
import MicroHTTP
import TableKit
import Testing

/// Cells are recycled across requests, registered on first use when a provider says so, and
/// counted at `/metrics` with the requests.
extension CellarHTTPTests {
    @Suite struct ReuseAndMetrics {
        @Test func theSecondRenderOfAListCreatesNoCells() throws {
            let server = try TestServer.showcase()
            #expect(server.app.registry.statistics.cellsCreated == 0)
            #expect(try server.get("/people").status == 200)
            let first = server.app.registry.statistics
            #expect(first.cellsCreated > 0)
            #expect(first.cellsCreated + first.cellsReused == 50, "one dequeue per row")

            #expect(try server.get("/people").status == 200)
            let second = server.app.registry.statistics
            #expect(second.cellsCreated == first.cellsCreated, "steady state: no new cell instances")
            #expect(second.cellsReused == first.cellsReused + 50)

            // Other pages of the list, its fragment and the listbench list reuse the same instances.
            #expect(try server.get("/people?offset=50&fragment=rows").status == 200)
            #expect(try server.get("/listbench?limit=30").status == 200)
            let third = server.app.registry.statistics
            #expect(third.cellsCreated == first.cellsCreated)
            #expect(third.cellsReused == second.cellsReused + 80)
            // JSON renders no cells.
            #expect(try server.get("/people.json").status == 200)
            #expect(server.app.registry.statistics == third)
        }

        @Test func aProviderWithRegisterCellTrueRegistersItsClassOnFirstUse() throws {
            let server = try TestServer { app in
                app.list("/late") { _ in LateController(registerCell: true) }
                app.list("/never") { _ in LateController(registerCell: false, identifier: "NeverRegisteredCell") }
            }
            #expect(!server.app.registry.isRegistered("LateCell"))
            let response = try server.get("/late")
            #expect(response.status == 200)
            #expect(response.body.occurrences(of: "<li class=\"cell late\"") == 4)
            #expect(response.text.contains("<span class=\"cell-title\">late 3</span>"))
            #expect(server.app.registry.isRegistered("LateCell"))
            // Registered once, then reused like any cell.
            let created = server.app.registry.statistics.cellsCreated
            #expect(try server.get("/late").status == 200)
            #expect(server.app.registry.statistics.cellsCreated == created)

            // Without registerCell, the same kind of cell under an unregistered identifier is a
            // fault: each row an error cell (OneBadRowTests), the page a 200.
            let never = try server.get("/never")
            #expect(never.status == 200)
            #expect(never.body.occurrences(of: "<li class=\"cell cell-error\"") == 4)
            #expect(!never.text.contains("NeverRegisteredCell"), "an error cell names no cell to the client")
            let neverID = try #require(TestServer.requestID(never))
            let logged = server.logs.waitForEntry { $0.metadata["request_id"] == neverID && $0.level == .error }
            #expect(logged?.metadata["error"]?.contains("NeverRegisteredCell") == true)
            #expect(!server.app.registry.isRegistered("NeverRegisteredCell"))
        }

        @Test func metricsCountRequestsByRouteAndCells() throws {
            let server = try TestServer.showcase()
            for target in ["/people", "/people", "/people/1", "/settings.json", "/nope"] {
                _ = try server.get(target)
            }
            // The server reports a request once it is done, which may be just after the client has it.
            let expected: [([String], Double)] = [
                (["method=\"GET\"", "route=\"/people\"", "status=\"200\""], 2), (["route=\"/people/:id\"", "status=\"200\""], 1),
                (["route=\"/settings.json\"", "status=\"200\""], 1), (["route=\"unmatched\"", "status=\"404\""], 1),
            ]
            var text = ""
            let deadline = ContinuousClock.now + .seconds(30)
            repeat {
                let metrics = try server.get("/metrics")
                #expect(metrics.status == 200)
                #expect(metrics.headers["Content-Type"]?.hasPrefix("text/plain; version=0.0.4") == true)
                text = metrics.text
                if expected.allSatisfy({ Self.value(in: text, "http_requests_total", labels: $0.0) == $0.1 }) { break }
                usleep(20_000)
            } while ContinuousClock.now < deadline
            for (labels, count) in expected {
                #expect(Self.value(in: text, "http_requests_total", labels: labels) == count, "\(labels) in\n\(text)")
            }
            #expect(text.contains("http_request_duration_seconds"))

            let statistics = server.app.registry.statistics
            #expect(statistics.cellsReused > 0)
            #expect(Self.value(in: text, "cellar_cells_created_total", labels: []) == Double(statistics.cellsCreated))
            #expect(Self.value(in: text, "cellar_cells_reused_total", labels: []) == Double(statistics.cellsReused))
            #expect(Self.value(in: text, "cellar_reuse_pools", labels: []) == Double(statistics.pools))
            // Buffered bodies not yet sent: a gauge, never negative (the /metrics answer itself is
            // rendered before it is queued, so it is not counted in it).
            let buffered = try #require(Self.value(in: text, "http_response_buffered_bytes", labels: []))
            #expect(buffered >= 0)
        }

        /// Requests counted one after another under keys that repeat and alternate: each lands on
        /// its own method, route and status (the last key's metrics are reused only for the same key).
        @Test func metricsKeepRepeatedAndAlternatingKeysApart() {
            let metrics = CellarMetrics()
            func summary(_ method: HTTPMethod, _ route: String?, _ status: HTTPStatus?) -> RequestSummary {
                RequestSummary(
                    method: method, path: route ?? "/x", route: route, status: status, bytesSent: 10, duration: .microseconds(300),
                    requestID: "0", outcome: .completed)
            }
            let sequence: [RequestSummary] = [
                summary(.get, "/people", .ok), summary(.get, "/people", .ok), summary(.get, "/people", .notFound),
                summary(.get, "/people", .ok), summary(.head, "/people", .ok), summary(.get, "/catalog", .ok),
                summary(.get, "/people", .ok), summary(.get, nil, .notFound), summary(.get, nil, nil),
            ]
            for request in sequence { metrics.requestCompleted(request) }
            let text = String(decoding: metrics.exposition(cells: ReuseRegistry().statistics, bufferedResponseBytes: 12_345), as: UTF8.self)
            let expected: [([String], Double)] = [
                (["method=\"GET\"", "route=\"/people\"", "status=\"200\""], 4),
                (["method=\"GET\"", "route=\"/people\"", "status=\"404\""], 1),
                (["method=\"HEAD\"", "route=\"/people\"", "status=\"200\""], 1),
                (["method=\"GET\"", "route=\"/catalog\"", "status=\"200\""], 1),
                (["route=\"unmatched\"", "status=\"404\""], 1), (["route=\"unmatched\"", "status=\"none\""], 1),
            ]
            for (labels, count) in expected {
                #expect(Self.value(in: text, "http_requests_total", labels: labels) == count, "\(labels) in\n\(text)")
            }
            #expect(Self.value(in: text, "http_request_duration_seconds_count", labels: ["route=\"/people\""]) == 6)
            #expect(Self.value(in: text, "http_request_duration_seconds_count", labels: ["route=\"/catalog\""]) == 1)
            #expect(Self.value(in: text, "http_request_duration_seconds_count", labels: ["route=\"unmatched\""]) == 2)
            #expect(Self.value(in: text, "http_response_buffered_bytes", labels: []) == 12_345)
        }

        /// The value of the first sample of `name` whose labels include all of `labels`.
        static func value(in exposition: String, _ name: String, labels: [String]) -> Double? {
            for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
                guard line.hasPrefix(name + "{") || line.hasPrefix(name + " ") else { continue }
                let parts = line.split(separator: " ")
                guard let last = parts.last, let value = Double(last) else { continue }
                if labels.allSatisfy({ line.contains($0) }) { return value }
            }
            return nil
        }
    }
}

/// A class cell that nobody registers at start-up.
final class LateCell: TableViewCell {
    var title = ""
    override func prepareForReuse() { title = "" }
    override func render(into html: inout HTMLWriter) throws {
        html.raw("<span class=\"cell-title\">")
        html.text(title)
        html.raw("</span>")
    }
}

struct LateController: TableController {
    let registerCell: Bool
    var identifier = LateCell.reuseIdentifier
    var title: String { "Late" }
    func numberOfRows(inSection section: Int) -> Int { 4 }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(reuseIdentifier: identifier, for: indexPath, registerCell: registerCell) { (cell: LateCell) in
            cell.title = "late \(indexPath.row)"
        }
    }
}
