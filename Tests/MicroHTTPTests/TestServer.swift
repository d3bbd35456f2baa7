import Foundation
import HTTPTestSupport
import Logging
import MicroHTTP

/// Log lines kept in memory, to check what the server logs.
final class LogRecorder: @unchecked Sendable {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    var all: [Entry] { lock.withLock { entries } }

    func append(_ entry: Entry) {
        lock.withLock { entries.append(entry) }
    }

    var logger: Logger {
        Logger(label: "test") { _ in RecordingLogHandler(recorder: self) }
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

/// Starts a server on 127.0.0.1 with an ephemeral port, runs `body`, and stops it.
func withServer<Result>(
    _ responder: any HTTPResponder, configuration: ServerConfiguration = ServerConfiguration(port: 0, threads: 2),
    logs: LogRecorder = LogRecorder(), observer: (any ServerObserver)? = nil, _ body: (Server) throws -> Result
) throws -> Result {
    var configuration = configuration
    configuration.port = 0
    let server = Server(configuration: configuration, responder: responder, logger: logs.logger, observer: observer)
    try server.start()
    defer { server.stop(gracePeriod: .seconds(2)) }
    return try body(server)
}

/// One request on a fresh connection.
func fetch(_ server: Server, _ target: String, method: String = "GET", headers: [(String, String)] = [], body: [UInt8] = []) throws
    -> TestHTTPResponse
{
    try TestHTTPClient.send(method, target, port: server.port, headers: headers, body: body)
}
