import Cellar
import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP
import Showcase
import TableKit

#if canImport(Glibc)
    import Glibc
#endif

/// TableKit's index path, not Foundation's.
typealias IndexPath = TableKit.IndexPath

/// The repository, found from this file's path (Tests/CellarTests/Support/TestServer.swift).
enum Repository {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()
    static var publicDirectory: String { root + "/Public" }
    static var xssPayloadsPath: String { root + "/Tests/e2e/xss_payloads.json" }
    static var checkMarkupScript: String { root + "/Tests/e2e/check_markup.py" }

    /// The strings of `Tests/e2e/xss_payloads.json`.
    static let xssPayloads: [String] = {
        guard let data = FileManager.default.contents(atPath: xssPayloadsPath),
            let strings = try? JSONDecoder().decode([String].self, from: data)
        else { return [] }
        return strings
    }()
}

/// Log lines kept in memory, to check what the app and the server log.
final class LogRecorder: @unchecked Sendable {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    var all: [Entry] { lock.withLock { entries } }

    func append(_ entry: Entry) { lock.withLock { entries.append(entry) } }

    var logger: Logger { Logger(label: "cellar-test") { _ in RecordingLogHandler(recorder: self) } }

    /// Waits for an entry that satisfies `predicate` (at once when there is one): the server logs from its own threads.
    func waitForEntry(timeout: Duration = .seconds(30), where predicate: (Entry) -> Bool) -> Entry? {
        let deadline = ContinuousClock.now + timeout
        repeat {
            if let entry = all.first(where: predicate) { return entry }
            usleep(10_000)
        } while ContinuousClock.now < deadline
        return nil
    }
}

struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        for (key, value) in event.metadata ?? [:] { merged[key] = value }
        recorder.append(.init(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
    }
}

/// A Cellar app served on 127.0.0.1 at an ephemeral port, in this process, for one test.
///
/// ```swift
/// let server = try TestServer.showcase()
/// let page = try server.get("/people")
/// let list = try server.list("/people.json")
/// ```
///
/// The server stops when the fixture goes away.
final class TestServer: @unchecked Sendable {
    let app: App
    let server: Server
    let logs: LogRecorder

    /// Builds an app with `configure` (register cells, mount lists), then starts serving it.
    /// With `validating`, the app is checked (``App/validate()``) before it serves, as `App.run` does.
    /// `heartbeat`: seconds between event streams' heartbeats.
    init(
        threads: Int = 2, publicDirectory: String = Repository.publicDirectory, validating: Bool = false, heartbeat: Int = 15,
        _ configure: (App) throws -> Void
    ) throws {
        logs = LogRecorder()
        app = App(publicDirectory: publicDirectory, logger: logs.logger)
        try configure(app)
        if validating { try app.validate() }
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, threads: threads, defaultHeaders: app.defaultHeaders, errorRenderer: app.errorRenderer,
            bufferedResponseBytes: app.bufferedResponseBytes)
        configuration.eventStreamHeartbeat = heartbeat
        server = Server(configuration: configuration, responder: app.makeResponder(), logger: logs.logger, observer: app.metrics)
        try server.start()
    }

    /// The showcase, with small data sets unless asked otherwise (`/big` is unpaged: keep `big` small
    /// unless the test is about it).
    static func showcase(
        people: Int = 300, listbench: Int = 400, big: Int = 500, hostilePayloads: [String]? = nil, threads: Int = 2,
        largePageBudget: Int? = nil
    ) throws -> TestServer {
        try TestServer(threads: threads) { app in
            if let largePageBudget { app.largePageBudget = largePageBudget }
            try Showcase.install(in: app, peopleCount: people, listbenchCount: listbench, bigCount: big, hostilePayloads: hostilePayloads)
        }
    }

    deinit {
        server.stop(gracePeriod: .seconds(2))
    }

    var port: Int { server.port }

    // MARK: Requests

    /// One GET on a new connection.
    func get(_ target: String, headers: [(String, String)] = []) throws -> TestHTTPResponse {
        try TestHTTPClient.send("GET", target, port: port, headers: headers, timeout: .seconds(60))
    }

    /// One GET asking for JSON with `Accept`.
    func getAcceptingJSON(_ target: String, headers: [(String, String)] = []) throws -> TestHTTPResponse {
        try get(target, headers: [("Accept", "application/json")] + headers)
    }

    /// A list's JSON, decoded; `accept` sends `Accept: application/json` (needed unless the path ends in `.json`).
    func list(_ target: String, accept: Bool = false) throws -> ListJSON {
        let response = accept ? try getAcceptingJSON(target) : try get(target)
        guard response.status == 200 else { throw UnexpectedResponse(target: target, response: response) }
        return try ListJSON(parsing: response.body)
    }

    /// A GET whose body is handed over piece by piece rather than kept: for responses of 100+ MB.
    /// The head arrives in the result even when the body is then cut short (`failure` says how).
    func stream(_ target: String, headers: [(String, String)] = [], onBody: (ArraySlice<UInt8>) throws -> Void) throws -> StreamedResponse {
        let client = try TestHTTPClient(port: port, timeout: .seconds(60))
        defer { client.close() }
        try client.sendRaw(TestHTTPClient.requestBytes("GET", target, headers: headers))
        var head: TestHTTPResponse?
        do {
            let response = try client.readResponse(onHead: { head = $0 }, onBody: onBody)
            return StreamedResponse(head: response, failure: nil)
        } catch let error as TestHTTPClientError {
            guard let head else { throw error }
            return StreamedResponse(head: head, failure: error)
        }
    }

    /// The last request id of the response, as sent in `X-Request-ID`.
    static func requestID(_ response: TestHTTPResponse) -> String? { response.headers["X-Request-ID"] }
}

/// A streamed response: its head, and why the body stopped early, if it did.
struct StreamedResponse {
    var head: TestHTTPResponse
    var failure: TestHTTPClientError?
}

struct UnexpectedResponse: Error, CustomStringConvertible {
    let target: String
    let response: TestHTTPResponse
    var description: String { "GET \(target) answered \(response.status): \(response.text.prefix(500))" }
}

extension TestHTTPResponse {
    /// The body parsed as JSON.
    func json() throws -> JSONValue { try JSONValue.parse(body) }

    /// The `Link` header's targets by relation (`next`, `prev`, `first`).
    var links: [String: String] {
        guard let header = headers["Link"] else { return [:] }
        var result: [String: String] = [:]
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = pieces.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            for parameter in pieces.dropFirst() where parameter.hasPrefix("rel=") {
                let relation = parameter.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                result[relation] = String(target.dropFirst().dropLast())
            }
        }
        return result
    }
}

extension Array where Element == UInt8 {
    /// How many times `needle` occurs (non-overlapping).
    func occurrences(of needle: String) -> Int {
        var counter = OccurrenceCounter(needle)
        counter.feed(self[...])
        return counter.count
    }
}

/// Counts a byte string's occurrences in a body that arrives in pieces (found across piece
/// boundaries too), with `memmem`, so a 200 MB body is counted quickly even in a debug build.
struct OccurrenceCounter {
    let needle: [UInt8]
    private(set) var count = 0
    private var carry: [UInt8] = []

    init(_ needle: String) { self.needle = Array(needle.utf8) }

    mutating func feed(_ piece: ArraySlice<UInt8>) {
        let joined = carry + piece
        joined.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            needle.withUnsafeBytes { pattern in
                while offset + needle.count <= raw.count {
                    // memchr finds candidates fast (memmem is not in Glibc's Swift module).
                    guard let found = memchr(base + offset, Int32(needle[0]), raw.count - offset - needle.count + 1) else { break }
                    let start = UnsafeRawPointer(found) - base
                    if memcmp(base + start, pattern.baseAddress!, needle.count) == 0 {
                        count += 1
                        offset = start + needle.count
                    } else {
                        offset = start + 1
                    }
                }
            }
            // Keep what could be the start of a match that the next piece completes.
            let keep = Swift.min(needle.count - 1, raw.count - offset)
            carry = Array(joined.suffix(keep))
        }
    }
}
