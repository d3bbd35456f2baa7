import Foundation
import HTTPTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `App.run` as a user's program: the test app (Tests/TestApp, built beside this test binary)
/// starts threads of its own before calling it, then serves one list.
@Suite(.serialized) struct EntryPointTests {
    /// The test app, built into the same folder as this test binary (`.build/debug`, or a sanitizer's scratch path).
    static let executable: String = {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return binary.deletingLastPathComponent().appendingPathComponent("cellar-test-app").path
    }()

    /// A running test app, its output in a file.
    final class RunningApp {
        let process = Process()
        let output: URL

        init(_ arguments: [String], environment: [String: String] = [:]) throws {
            output = FileManager.default.temporaryDirectory.appendingPathComponent("cellar-test-app-\(UUID().uuidString).log")
            FileManager.default.createFile(atPath: output.path, contents: nil)
            let handle = try FileHandle(forWritingTo: output)
            process.executableURL = URL(fileURLWithPath: EntryPointTests.executable)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: output)
        }

        var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

        /// The port from the `listening` line, once it is written (the process has bound by then).
        func waitForPort() throws -> Int {
            for _ in 0..<600 {
                if let line = log.split(separator: "\n").first(where: { $0.contains("msg=listening") }),
                    let address = line.split(separator: " ").first(where: { $0.hasPrefix("address=") }),
                    let port = address.split(separator: ":").last.flatMap({ Int($0) })
                {
                    return port
                }
                if !process.isRunning { break }
                usleep(50_000)
            }
            throw Failure(message: "no listening line; output:\n\(log)")
        }

        /// Waits for the process to end (a bounded wait, generous for a loaded machine); its status.
        func waitForExit(seconds: Int = 60) throws -> Int32 {
            for _ in 0..<(seconds * 20) {
                if !process.isRunning { return process.terminationStatus }
                usleep(50_000)
            }
            throw Failure(message: "still running after \(seconds) s; output:\n\(log)")
        }

        /// The ids of the app's own threads once `count` of them have named themselves `app-sleeper`
        /// (each does so after unblocking the stop signals; on a loaded machine a thread may not have
        /// run yet when the server listens), or those named after 30 s; read from /proc.
        func sleeperThreads(count: Int) -> [Int32] {
            let deadline = ContinuousClock.now + .seconds(30)
            var threads = sleeperThreads
            while threads.count < count && ContinuousClock.now < deadline {
                usleep(20_000)
                threads = sleeperThreads
            }
            return threads
        }

        /// The ids of the app's own threads (named `app-sleeper`), read from /proc.
        var sleeperThreads: [Int32] {
            let tasks = "/proc/\(process.processIdentifier)/task"
            let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
            return ids.compactMap { id in
                let name = (try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8)) ?? ""
                return name.hasPrefix("app-sleeper") ? Int32(id) : nil
            }
        }
    }

    /// glibc's `tgkill` (a signal to one thread of another process), found at run time: Swift's
    /// Glibc module does not declare it, and `syscall` is variadic.
    static let tgkill: (@convention(c) (Int32, Int32, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "tgkill") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, Int32) -> Int32).self)
    }()

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// GET over a plain socket; the status code.
    static func status(port: Int, path: String) throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(message: "cannot connect to \(port)") }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        let statusLine = String(decoding: received.prefix(while: { $0 != UInt8(ascii: "\r") }), as: UTF8.self)
        guard let code = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw Failure(message: "no status line from \(path)")
        }
        return code
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalToAThreadTheAppStartedDrainsAndExitsZero(signal: Int32) throws {
        let app = try RunningApp(["serve", "--host", "127.0.0.1", "--port", "0", "--shutdown-grace", "5"])
        let port = try app.waitForPort()
        #expect(try Self.status(port: port, path: "/words") == 200)
        let sleepers = app.sleeperThreads(count: 4)
        #expect(sleepers.count == 4, "the app's own threads are running")
        // To one of the threads the app started before App.run, which never blocked the signal.
        let target = try #require(sleepers.first)
        let tgkill = try #require(Self.tgkill)
        #expect(tgkill(app.process.processIdentifier, target, signal) == 0)
        #expect(try app.waitForExit() == 0, "exit 0 after a drain; output:\n\(app.log)")
        let log = app.log
        #expect(log.contains("msg=stopping") && log.contains("signal=\(signal == SIGTERM ? "SIGTERM" : "SIGINT")"))
        #expect(log.contains("msg=stopped"))
    }

    @Test func aStopSignalToTheProcessDrainsAndExitsZero() throws {
        let app = try RunningApp(["--host", "127.0.0.1", "--port", "0"])
        let port = try app.waitForPort()
        #expect(try Self.status(port: port, path: "/healthz") == 200)
        #expect(try Self.status(port: port, path: "/metrics") == 200)
        #expect(try Self.status(port: port, path: "/words.json") == 200)
        kill(app.process.processIdentifier, SIGTERM)
        #expect(try app.waitForExit() == 0)
        #expect(app.log.contains("msg=stopped"))
    }

    @Test func aBadFlagOrVariableExits64() throws {
        let flag = try RunningApp(["serve", "--port", "http"])
        #expect(try flag.waitForExit() == 64)
        let variable = try RunningApp(["serve"], environment: ["CELLAR_TIMEOUT": "soon"])
        #expect(try variable.waitForExit() == 64)
        #expect(variable.log.contains("CELLAR_TIMEOUT='soon' is not a whole number"))
        let development = try RunningApp(["serve"], environment: ["CELLAR_DEVELOPMENT": "maybe"])
        #expect(try development.waitForExit() == 64)
        // An address's watchers are within its connections: more watchers than connections is a usage error.
        let watchers = try RunningApp(["serve", "--max-connections-per-ip", "8", "--max-watchers-per-ip", "9"])
        #expect(try watchers.waitForExit() == 64)
        #expect(watchers.log.contains("--max-watchers-per-ip must be between 0 and --max-connections-per-ip (8)"))
    }

    @Test func aSetUpErrorExits64WithItsMessage() throws {
        let app = try RunningApp(["serve", "--port", "0"], environment: ["TEST_APP_FAIL": "1"])
        #expect(try app.waitForExit() == 64)
        #expect(app.log.contains("Cannot start: the test app was asked to fail its set-up"))
    }

    @Test func aPortInUseExits70() throws {
        let first = try RunningApp(["--host", "127.0.0.1", "--port", "0"])
        let port = try first.waitForPort()
        let second = try RunningApp(["--host", "127.0.0.1", "--port", String(port)])
        #expect(try second.waitForExit() == 70)
        #expect(second.log.contains("cannot start"))
        // Said as the other start-up errors are, on a line of its own (standard error).
        let said = second.log.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(
            said == [
                "Error: Cannot start: Could not listen on 127.0.0.1:\(port): Address already in use (another process listens there: stop it, or choose another port with --port or PORT)"
            ],
            "\(second.log)")
        kill(first.process.processIdentifier, SIGTERM)
        #expect(try first.waitForExit() == 0)
    }

    @Test func serveAnswersThroughTheMiddlewareWithTheAppsHeaders() throws {
        let server = try RunningApp(["--host", "127.0.0.1", "--port", "0"])
        let port = try server.waitForPort()
        // POST /words has no route (a 405): a forged one is refused before routing.
        let forged = try TestHTTPClient.send("POST", "/words", port: port, headers: [("Sec-Fetch-Site", "cross-site")], timeout: .seconds(30))
        #expect(forged.status == 403)
        #expect(try TestHTTPClient.send("POST", "/words", port: port, timeout: .seconds(30)).status == 405)
        let page = try TestHTTPClient.send("GET", "/words", port: port, timeout: .seconds(30))
        #expect(page.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try server.waitForExit() == 0)
    }

    @Test func routesAndHealthcheckAreCommandsOfEveryApp() throws {
        let routes = try RunningApp(["routes"])
        #expect(try routes.waitForExit() == 0)
        for line in ["GET     /words", "GET     /words.json", "GET     /words/:id", "GET     /healthz", "GET     /readyz", "GET     /metrics"] {
            #expect(routes.log.contains(line), "routes lists \(line)")
        }
        let server = try RunningApp(["--host", "127.0.0.1", "--port", "0"])
        let port = try server.waitForPort()
        // A generous probe timeout: the server answers at once, but a loaded machine may be slow to let it.
        let healthy = try RunningApp(["healthcheck", "--port", String(port), "--timeout", "30"])
        #expect(try healthy.waitForExit() == 0)
        let ready = try RunningApp(["healthcheck", "--ready", "--port", String(port), "--timeout", "30"])
        #expect(try ready.waitForExit() == 0)
        #expect(ready.log.contains("ready: http://127.0.0.1:\(port)/readyz answered HTTP/1.1 200"))
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try server.waitForExit() == 0)
        let unhealthy = try RunningApp(["healthcheck", "--port", String(port), "--timeout", "1"])
        #expect(try unhealthy.waitForExit() == 1)
    }

    @Test func helpNamesTheAppAndItsVariables() throws {
        let help = try RunningApp(["serve", "--help"])
        #expect(try help.waitForExit() == 0)
        #expect(help.log.contains("CELLAR_DEVELOPMENT"))
        let version = try RunningApp(["--version"])
        #expect(try version.waitForExit() == 0)
        #expect(version.log.contains("0.1.0"))
    }
}
