import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP

/// A database served by a Cellar app (`app.mount(database)`) on 127.0.0.1 at an ephemeral port,
/// for one test; the server stops when the fixture goes away. ``DatabaseTestServer`` serves a
/// generated SQLite file; a PostgreSQL database is served by this class directly.
class ListTestServer {
    let app: App
    let server: Server
    /// Each table's name and where it was mounted.
    let mounted: [(table: String, path: String)]

    /// The repository's `Public` folder, found from this file's path.
    static let publicDirectory: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Public").path
    }()

    /// Mounts `database` (with `configuration`, if any) and serves it. `connectionMemoryLimit`
    /// bounds the request head to a quarter of it: raise it to send values of 100 KB.
    init(
        serving database: Database, configuration: DatabaseConfiguration? = nil, connectionMemoryLimit: Int = 32 * 1024, logger: Logger? = nil,
        allowsSQL: Bool = true
    ) throws {
        // Warnings and errors only: an access line per request would bury the suite's own output.
        var quiet = Logger(label: "cellar-database-test")
        quiet.logLevel = .warning
        app = App(publicDirectory: Self.publicDirectory, logger: logger ?? quiet)
        // A 500 says what failed, so a failing expectation shows it.
        app.showsErrorDetails = true
        app.databaseAllowsSQL = allowsSQL
        if let configuration {
            mounted = try app.mount(database, configuration: configuration)
        } else {
            mounted = try app.mount(database)
        }
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, threads: 2, connectionMemoryLimit: connectionMemoryLimit, errorRenderer: app.errorRenderer,
            bufferedResponseBytes: app.bufferedResponseBytes)
        server = Server(configuration: configuration, responder: app.makeServingRouter(), logger: app.logger, observer: app.metrics)
        try server.start()
    }

    deinit {
        server.stop(gracePeriod: .seconds(2))
    }

    // MARK: Requests

    /// One GET on a new connection; the target is sent as written.
    func get(_ target: String, headers: [(String, String)] = []) throws -> TestHTTPResponse {
        try TestHTTPClient.send("GET", target, port: server.port, headers: headers, timeout: .seconds(60))
    }

    /// A JSON answer with status 200, parsed.
    func json(_ target: String, headers: [(String, String)] = []) throws -> JSON {
        let response = try get(target, headers: headers)
        guard response.status == 200 else { throw UnexpectedAnswer(target: target, response: response) }
        return try JSON.parse(response.body)
    }

    /// Every row of the list from `target` on, page after page by following `links.next`, and the
    /// number of pages; stops after `maxPages` (a list whose links loop).
    func walk(_ target: String, maxPages: Int = 2_000) throws -> (rows: [JSON], pages: Int) {
        var rows: [JSON] = []
        var next: String? = target
        var pages = 0
        while let current = next, pages < maxPages {
            let page = try json(current)
            rows += page.rows
            pages += 1
            next = page["links"]?["next"]?.string
        }
        return (rows, pages)
    }

}

/// A generated SQLite file served by a Cellar app (`app.mount(Database(…))`), for one test.
///
/// ```swift
/// let server = try DatabaseTestServer(TemporaryDatabase(CellarFixture.sql))
/// let page = try server.json("/wines.json?sort=vintage&limit=3")
/// let expected = try server.reference("SELECT id FROM wines ORDER BY vintage, id")
/// ```
final class DatabaseTestServer: ListTestServer {
    let database: TemporaryDatabase

    /// Mounts `database` with `options` (and `configuration`, if any) and serves it.
    init(
        _ database: TemporaryDatabase, options: DatabaseOptions = DatabaseOptions(), configuration: DatabaseConfiguration? = nil,
        connectionMemoryLimit: Int = 32 * 1024, allowsSQL: Bool = true
    ) throws {
        self.database = database
        try super.init(
            serving: Database(path: database.path, options: options), configuration: configuration, connectionMemoryLimit: connectionMemoryLimit,
            allowsSQL: allowsSQL)
    }

    // MARK: The file

    /// The rows of `sql` on a read-only connection of the test's own.
    func reference(_ sql: String, _ values: [DatabaseValue] = []) throws -> [[DatabaseValue]] {
        try SQLiteConnection(path: database.path).rows(sql, values)
    }

    /// The first column of each row of `sql`, as a list row's `id` is written.
    func referenceIDs(_ sql: String, _ values: [DatabaseValue] = []) throws -> [String] {
        try reference(sql, values).map { $0.first?.identifier ?? "" }
    }

    /// The bytes of the database file and of any journal beside it.
    func fileBytes() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-journal", "-wal", "-shm"] {
            let path = database.path + suffix
            if let data = FileManager.default.contents(atPath: path) { files[suffix] = data }
        }
        return files
    }
}

/// A response that was not the 200 a test expected.
struct UnexpectedAnswer: Error, CustomStringConvertible {
    let target: String
    let response: TestHTTPResponse
    var description: String { "GET \(target.prefix(300)) answered \(response.status): \(response.text.prefix(600))" }
}

extension DatabaseValue {
    /// The value as a list row's `id` or a detail path writes it.
    var identifier: String {
        switch self {
        case .null: ""
        case .integer(let integer): String(integer)
        case .real(let real): real.description
        case .text(let text): text
        case .blob(let bytes): "<\(bytes.count)-byte blob>"
        }
    }

    /// The value as a row's JSON item holds it.
    var json: JSON {
        switch self {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): .string(text)
        case .blob(let bytes): .object(["$base64": .string(Data(bytes).base64EncodedString())])
        }
    }
}

extension TestHTTPResponse {
    /// The `Link` header's targets by relation (`next`, `prev`, `first`).
    var links: [String: String] {
        guard let header = headers["Link"] else { return [:] }
        var result: [String: String] = [:]
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = pieces.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            for parameter in pieces.dropFirst() where parameter.hasPrefix("rel=") {
                result[parameter.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\""))] = String(target.dropFirst().dropLast())
            }
        }
        return result
    }
}

/// A path segment or query value percent-encoded as a client writes it: every byte but the
/// unreserved ones.
func percentEncoded(_ text: String) -> String {
    text.addingPercentEncoding(
        withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"))
        ?? text
}

/// A JSON document, decoded by value: integers stay integers, and a number written with a
/// fraction or an exponent is a real.
enum JSON: Equatable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    static func parse(_ bytes: [UInt8]) throws -> JSON {
        try JSONDecoder().decode(JSON.self, from: Data(bytes))
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .real(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b
        // A real with no fraction may be written as an integer.
        case (.integer(let a), .real(let b)), (.real(let b), .integer(let a)): Double(exactly: a) == b
        case (.string(let a), .string(let b)): Array(a.unicodeScalars) == Array(b.unicodeScalars)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var array: [JSON] { if case .array(let value) = self { value } else { [] } }

    var isNull: Bool { if case .null = self { true } else { false } }

    /// A list's rows, across its sections.
    var rows: [JSON] { (self["sections"]?.array ?? []).flatMap { $0["rows"]?.array ?? [] } }

    /// The rows' ids.
    var ids: [String] { rows.compactMap { $0["id"]?.string } }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .real(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let object): "{" + object.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        }
    }
}

/// What the tests read from a list's HTML.
enum HTMLRows {
    /// The rows' identifiers, from their `id="row-…"` attributes, decoded.
    static func identifiers(_ html: String) -> [String] {
        html.matches(of: /<(?:li|tr) class="cell[^"]*" id="row-([^"]*)"/).map { unescaped(String($0.output.1)).removingPercentEncoding ?? "" }
    }

    /// The "Load more" link's target, unescaped.
    static func loadMoreLink(_ html: String) -> String? {
        guard let match = html.firstMatch(of: /<a class="load-more" rel="next" href="([^"]*)"/) else { return nil }
        return unescaped(String(match.output.1))
    }

    static func unescaped(_ text: String) -> String {
        text.replacing("&quot;", with: "\"").replacing("&#39;", with: "'").replacing("&lt;", with: "<").replacing("&gt;", with: ">")
            .replacing("&amp;", with: "&")
    }
}
