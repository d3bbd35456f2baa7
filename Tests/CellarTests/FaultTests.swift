import Cellar
import Foundation
import HTTPTestSupport
import MicroHTTP
import TableKit
import Testing

/// Faults inside: a controller that throws gives a 500 with the request id, and the server goes
/// on. A row whose cell fails costs that row alone (OneBadRowTests).
extension CellarHTTPTests {
    @Suite struct Faults {
        static func faultyServer() throws -> TestServer {
            try TestServer { app in
                try app.register(PlainTextCell.self)
                try app.register(ThrowingCell.self)
                try app.registerPrototypes()
                app.list("/ok") { _ in FaultyController(rows: 3, failure: .none) }
                app.list("/factory-throws") { _ in throw SecretFault() }
                app.list("/render-throws") { _ in FaultyController(rows: 5, failure: .render(atRow: 2)) }
                app.list("/unregistered") { _ in FaultyController(rows: 5, failure: .unregistered(atRow: 1)) }
                app.list("/item-throws") { _ in FaultyController(rows: 5, failure: .item(atRow: 3)) }
                app.list("/stream-fails", paging: .unpaged) { _ in FaultyController(rows: 30_000, failure: .render(atRow: 20_000)) }
            }
        }

        /// Each fault, and whether the JSON of the same URL fails too. Every 500 says only that the
        /// server failed; what failed goes to the log.
        static let faults: [(target: String, failsAsJSON: Bool)] = [
            ("/factory-throws", true),
            ("/factory-throws/1", true),
        ]

        /// What a production 500 says, and what it must never show: internal messages, Swift type
        /// names, the secret in the thrown error.
        static let says = "The server failed to answer this request."
        static let neverShown = [
            "hunter2", "SecretFault", "FaultyController", "TableKitError", "Missing", "Have you registered", "Swift.", "Error:",
        ]

        @Test(arguments: faults.map(\.target))
        func aFaultIsA500WithTheRequestIDAndTheServerGoesOn(target: String) throws {
            let fault = try #require(Self.faults.first { $0.target == target })
            let server = try Self.faultyServer()
            let response = try server.get(target)
            #expect(response.status == 500)
            let requestID = try #require(TestServer.requestID(response))
            if target.hasSuffix(".json") {
                let error = try ErrorJSON(parsing: response.body)
                #expect(error.error.status == 500)
                #expect(error.error.requestID == requestID)
                #expect(error.error.message == Self.says)
            } else {
                #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
                #expect(response.text.hasPrefix("<!doctype html>"))
                let elements = try HTMLInspector.elements(response.body)
                #expect(elements.first { $0.tag == "h1" }?.text == "500 Internal Server Error")
                #expect(elements.first { $0.hasClass("request-id") }?.text == "Request id: \(requestID)")
                let text = elements.first { $0.tag == "main" }?.text ?? ""
                #expect(text.contains(Self.says))
            }
            // What went wrong stays in the log, with the request id; the page does not show it.
            for hidden in Self.neverShown { #expect(!response.text.contains(hidden), "the 500 shows \(hidden)") }
            let logged = server.logs.waitForEntry { $0.level == .error && $0.metadata["request_id"] == requestID }
            #expect(logged != nil, "an error is logged with the request id")
            if target.hasPrefix("/factory-throws") {
                #expect(logged?.metadata["error"]?.contains("hunter2") == true)
            }

            // As JSON when the client asks for JSON.
            let json = try server.getAcceptingJSON(target)
            if fault.failsAsJSON {
                #expect(json.status == 500)
                #expect(json.headers["Content-Type"] == "application/json")
                let error = try ErrorJSON(parsing: json.body)
                #expect(error.error.status == 500)
                #expect(error.error.requestID == TestServer.requestID(json))
                #expect(error.error.message == Self.says)
                for hidden in Self.neverShown { #expect(!json.text.contains(hidden), "the JSON 500 shows \(hidden)") }
                #expect(try json.json()["error"]?.keys == ["status", "message", "requestID"])
            } else {
                #expect(json.status == 200)
            }

            // The next request, on a new connection, is served normally.
            let next = try server.get("/ok")
            #expect(next.status == 200)
            #expect(next.body.occurrences(of: "<li class=\"cell ") == 3)
        }

        @Test func rowsThatFailCanBeAvoidedByPaging() throws {
            // The failing row is not rendered when it is outside the window: faults are per row, not per list.
            let server = try Self.faultyServer()
            let before = try server.get("/render-throws?limit=2")
            #expect(before.status == 200)
            #expect(before.body.occurrences(of: "<li class=\"cell ") == 2)
            #expect(try server.get("/render-throws?offset=3").status == 200)
        }
    }
}

struct SecretFault: Error, CustomStringConvertible {
    var description: String { "the database password is hunter2" }
}

struct CellFault: Error, CustomStringConvertible {
    let row: Int
    var description: String { "row \(row) cannot be drawn" }
}

/// A cell that throws while rendering the row it was configured to fail on.
final class ThrowingCell: TableViewCell, ConfigurableCell {
    var row = 0
    var fails = false

    func configure(with data: (row: Int, fails: Bool)) {
        row = data.row
        fails = data.fails
    }

    override func prepareForReuse() { fails = false }

    override func render(into html: inout HTMLWriter) throws {
        if fails { throw CellFault(row: row) }
        html.raw("<span class=\"cell-title\">Row ")
        html.text(row)
        html.raw("</span>")
    }
}

/// An item whose encoding throws.
struct UnencodableItem: Encodable {
    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "not today"))
    }
}

/// A list whose rows fail in the way a test asks for.
struct FaultyController: TableController {
    enum Failure {
        case none
        case render(atRow: Int)
        case unregistered(atRow: Int)
        case item(atRow: Int)
    }

    let rows: Int
    let failure: Failure
    var title: String { "Faulty" }

    func numberOfRows(inSection section: Int) -> Int { rows }
    func identifier(forRowAt indexPath: IndexPath) -> String { String(indexPath.row) }

    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        switch failure {
        case .unregistered(let row) where row == indexPath.row:
            return DataCellProvider(prototype: "Missing", for: indexPath, data: ["title": "nobody registered me"])
        case .render(let row):
            return DataCellProvider(for: indexPath, cell: ThrowingCell.self, data: (indexPath.row, indexPath.row == row))
        default:
            return DataCellProvider(for: indexPath, cell: ThrowingCell.self, data: (indexPath.row, false))
        }
    }

    func item(forRowAt indexPath: IndexPath) -> (any Encodable)? {
        if case .item(let row) = failure, row == indexPath.row { return UnencodableItem() }
        return ["row": indexPath.row]
    }

    func detail(forRowAt indexPath: IndexPath) -> RowDetail? { RowDetail(title: "Row \(indexPath.row)", fields: []) }
}
