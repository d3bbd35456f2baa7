import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

@testable import CellarDatabase

#if canImport(Glibc)
    import Glibc
#endif

/// Two `cellar serve --writable` processes on one PostgreSQL database, the change log installed:
/// a write through one reaches a live list on the other through the log's NOTIFY.
extension PostgresWriteTests {
    @Test func aWriteThroughOneProcessReachesAWatcherOfAnother() throws {
        let served = try PostgresWriteTestServer.fresh()
        _ = try PostgresChangeLog.install(on: served.admin, deadline: .seconds(60))
        let writer = try ServedPostgres(url: served.url)
        let watched = try ServedPostgres(url: served.url)
        let watcher = try EventStreamClient(port: watched.port, target: "/authors?limit=10")
        #expect(watcher.status == 200)
        _ = try watcher.nextEvent(timeout: .seconds(30))
        let inserted = try TestHTTPClient.send(
            "POST", "/authors/-/insert", port: writer.port,
            headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(try writer.token())")],
            body: Array(#"{"row": {"id": 8, "name": "Delany"}}"#.utf8), timeout: .seconds(30))
        #expect(inserted.status == 201, "\(inserted.text)")
        let batch = try #require(try LiveDatabaseListTests.nextBatch(watcher))
        #expect(batch.data.contains("Delany") || batch.data.contains(#"action="refresh""#), "\(batch.data.prefix(400))")
        #expect(try TestHTTPClient.send("GET", "/authors/8", port: watched.port, timeout: .seconds(30)).status == 200)
    }

    /// `cellar serve --database URL --writable` in a process of its own, the role's password in
    /// `PGPASSWORD` (not on its command line), stopped with the test.
    final class ServedPostgres {
        static let secret = "a-postgres-process-test-secret-0123456789abcdef"
        let process = Process()
        let port: Int
        let folder: URL

        init(url: String) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("cellar-pgwrite-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let output = folder.appendingPathComponent("serve.log")
            let configuration = folder.appendingPathComponent("cellar.yaml")
            let hash = try PasswordHash.make(password: "process-test-password", logCost: 10)
            try """
            accounts:
              writer: {password: "\(hash)"}
            permissions:
              "*": {insert: [writer], update: [writer], delete: [writer]}
            """.write(to: configuration, atomically: true, encoding: .utf8)
            FileManager.default.createFile(atPath: output.path, contents: nil)
            var components = try #require(URLComponents(string: url))
            let password = components.password ?? ""
            components.password = nil
            let handle = try FileHandle(forWritingTo: output)
            process.executableURL = URL(fileURLWithPath: DatabaseWriteCrashTests.executable)
            process.arguments = [
                "serve", "--database", components.string ?? url, "--writable", "--config", configuration.path, "--port", "0", "--host",
                "127.0.0.1",
            ]
            process.environment = ProcessInfo.processInfo.environment.merging(["CELLAR_SECRET": Self.secret, "PGPASSWORD": password]) { $1 }
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            var found: Int?
            for _ in 0..<1200 where found == nil {
                let log = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                if let line = log.split(separator: "\n").first(where: { $0.contains("msg=listening") }),
                    let address = line.split(separator: " ").first(where: { $0.hasPrefix("address=") })
                {
                    found = address.split(separator: ":").last.flatMap { Int($0) }
                }
                if !process.isRunning { break }
                usleep(50_000)
            }
            guard let found else {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                throw DatabaseWriteCrashTests.CrashTestFailure(
                    message: "no listening line: \((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
            }
            port = found
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: folder)
        }

        /// A bearer token for the account, signed with the server's secret.
        func token() throws -> String {
            let later = Int64(Date().timeIntervalSince1970) + 3600
            let scopes = try ["view", "insert", "update", "delete"].map(BearerToken.Scope.init)
            return try BearerToken.make(actor: "writer", scopes: scopes, expiresAt: later, keys: try SessionKeys(text: Self.secret))
        }
    }
}
