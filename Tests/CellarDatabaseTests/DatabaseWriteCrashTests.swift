import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `cellar serve --writable` killed with `SIGKILL` while clients write batches: after it, every
/// batch is in the file whole or not at all, every acknowledged one is there, the file checks out,
/// and a restarted server serves it and takes writes again. And `/metrics` counts the changes.
@Suite(.serialized) struct DatabaseWriteCrashTests {
    static let rowsPerBatch = 50
    static let secret = "a-crash-test-secret-0123456789abcdef0123456789"

    /// The `cellar` executable, built into the same folder as this test binary.
    static let executable: String = {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return binary.deletingLastPathComponent().appendingPathComponent("cellar").path
    }()

    @Test func killDuringWritesLeavesNoPartialBatch() throws {
        let database = try TemporaryDatabase("CREATE TABLE items(id INTEGER PRIMARY KEY, batch INTEGER NOT NULL, n INTEGER NOT NULL);")
        let server = try ServedFile(database)
        let acknowledged = Locked<[Int]>([])
        let failures = Locked<[String]>([])
        // What the clients' sends threw before the kill, by description (none is expected).
        let errors = Locked<[String: Int]>([:])
        let killing = Locked(false)
        let stop = Locked(false)
        let token = try server.token()
        let port = server.port
        let clients = (0..<3).map { client in
            Thread {
                var batch = client
                while !stop.withLock({ $0 }) {
                    let rows = (0..<Self.rowsPerBatch).map { #"{"batch": \#(batch), "n": \#($0)}"# }.joined(separator: ",")
                    do {
                        let response = try TestHTTPClient.send(
                            "POST", "/items/-/insert", port: port,
                            headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")],
                            body: Array(#"{"rows": [\#(rows)]}"#.utf8), timeout: .seconds(30))
                        if response.status == 201 {
                            acknowledged.withLock { $0.append(batch) }
                        } else {
                            failures.withLock { $0.append("\(response.status) \(response.text)") }
                        }
                    } catch {
                        // Before the kill nothing throws (what does is counted); after it, the server died under
                        // this request, which it may or may not have committed.
                        if !killing.withLock({ $0 }) { errors.withLock { $0["\(error)", default: 0] += 1 } }
                    }
                    batch += 3
                }
            }
        }
        for client in clients { client.start() }
        // Killed once a few batches are in, while the clients are still sending.
        let deadline = ContinuousClock.now + .seconds(60)
        // (Not waiting out the minute for a server that is gone: its log says why.)
        while acknowledged.withLock({ $0.count }) < 20, ContinuousClock.now < deadline, server.process.isRunning { usleep(10_000) }
        let runningBeforeKill = server.process.isRunning
        killing.withLock { $0 = true }
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
        stop.withLock { $0 = true }
        usleep(200_000)
        #expect(failures.withLock { $0 } == [])
        let done = acknowledged.withLock { $0 }
        #expect(runningBeforeKill, "the server had exited before the kill: \(server.log)")
        #expect(errors.withLock { $0 } == [:], "the clients' sends threw before the kill; the server's log: \(server.log)")
        #expect(done.count >= 20, "the server's log: \(server.log)")

        // The file as the next process opens it (SQLite recovers from the WAL).
        let file = try SQLiteConnection(path: database.path, readOnly: false)
        #expect(try file.rows("PRAGMA integrity_check") == [[.text("ok")]])
        let partial = try file.rows("SELECT batch, count(*) FROM items GROUP BY batch HAVING count(*) != \(Self.rowsPerBatch)")
        #expect(partial == [], "batches written in part: \(partial)")
        let stored = Set(
            try file.rows("SELECT DISTINCT batch FROM items").compactMap { row -> Int? in if case .integer(let b) = row[0] { Int(b) } else { nil } })
        for batch in done { #expect(stored.contains(batch), "batch \(batch) was acknowledged but is not there") }

        // A restarted server serves the file and writes to it.
        let restarted = try ServedFile(database)
        let count = try TestHTTPClient.send("GET", "/items.json?limit=1", port: restarted.port, timeout: .seconds(30))
        #expect(count.status == 200)
        let after = try TestHTTPClient.send(
            "POST", "/items/-/insert", port: restarted.port,
            headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(try restarted.token())")],
            body: Array(#"{"row": {"batch": -1, "n": 0}}"#.utf8), timeout: .seconds(30))
        #expect(after.status == 201, "\(after.text)")
    }

    @Test func metricsCountChangesByListAndAction() throws {
        let database = try TemporaryDatabase("CREATE TABLE items(id INTEGER PRIMARY KEY, batch INTEGER NOT NULL, n INTEGER NOT NULL);")
        let server = try ServedFile(database)
        let headers = [("Content-Type", "application/json"), ("Authorization", "Bearer \(try server.token())")]
        let post = { (target: String, body: String) throws -> Int in
            try TestHTTPClient.send("POST", target, port: server.port, headers: headers, body: Array(body.utf8), timeout: .seconds(30)).status
        }
        #expect(try post("/items/-/insert", #"{"rows": [{"batch": 1, "n": 7001}, {"batch": 1, "n": 7002}]}"#) == 201)
        #expect(try post("/items/1/-/update", #"{"update": {"n": 7003}}"#) == 200)
        #expect(try post("/items/2/-/delete", "{}") == 200)
        // Refused: counted nowhere.
        #expect(try post("/items/-/insert", #"{"row": {"batch": null, "n": 7004}}"#) == 422)
        let metrics = try TestHTTPClient.send("GET", "/metrics", port: server.port, timeout: .seconds(30)).text
        let lines = metrics.split(separator: "\n").filter { $0.hasPrefix("cellar_row_changes_total") }
        #expect(lines.contains { $0.contains(#"action="insert""#) && $0.contains(#"list="/items""#) && $0.hasSuffix(" 2") }, "\(lines)")
        #expect(lines.contains { $0.contains(#"action="update""#) && $0.hasSuffix(" 1") }, "\(lines)")
        #expect(lines.contains { $0.contains(#"action="delete""#) && $0.hasSuffix(" 1") }, "\(lines)")
        #expect(lines.count == 3, "\(lines)")
        // No value and no key in any of them.
        #expect(!metrics.contains("7001") && !metrics.contains("7003"))
    }

    /// `cellar serve --database FILE --writable` in a process of its own, on a free port, with an
    /// account that may insert, update and delete.
    final class ServedFile {
        let process = Process()
        let port: Int
        let output: URL
        let configuration: URL

        /// `arguments` and `environment` are added to the command's and the test's own.
        init(_ database: TemporaryDatabase, arguments: [String] = [], environment: [String: String] = [:]) throws {
            output = URL(fileURLWithPath: database.file("serve-\(UUID().uuidString).log"))
            configuration = URL(fileURLWithPath: database.file("cellar.yaml"))
            let hash = try PasswordHash.make(password: "crash-test-password", logCost: 10)
            try """
            accounts:
              writer: {password: "\(hash)"}
            permissions:
              "*": {insert: [writer], update: [writer], delete: [writer]}
            """.write(to: configuration, atomically: true, encoding: .utf8)
            FileManager.default.createFile(atPath: output.path, contents: nil)
            let handle = try FileHandle(forWritingTo: output)
            process.executableURL = URL(fileURLWithPath: DatabaseWriteCrashTests.executable)
            process.arguments =
                [
                    "serve", "--database", database.path, "--writable", "--config", configuration.path, "--port", "0", "--host", "127.0.0.1",
                ] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging(
                environment.merging(["CELLAR_SECRET": DatabaseWriteCrashTests.secret]) { $1 }
            ) { $1 }
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
                throw CrashTestFailure(message: "no listening line: \((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
            }
            port = found
        }

        /// What the server wrote to its standard output and error so far.
        var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }

        /// A bearer token for the account, signed with the server's secret.
        func token() throws -> String {
            let later = Int64(Date().timeIntervalSince1970) + 3600
            let scopes = try ["view", "insert", "update", "delete"].map(BearerToken.Scope.init)
            return try BearerToken.make(
                actor: "writer", scopes: scopes, expiresAt: later, keys: try SessionKeys(text: DatabaseWriteCrashTests.secret))
        }
    }

    struct CrashTestFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
