import Foundation
import HTTPTestSupport
import Testing

@testable import Cellar

#if canImport(Glibc)
    import Glibc
#endif

/// `account hash`, and `serve` with `--config`'s accounts, `--private` and `CELLAR_SECRET`, as a
/// user runs them: the test app's process, its whole output scanned for the secrets it was given.
@Suite(.serialized) struct AccountCommandTests {
    /// Runs the test app with `arguments` and `input` on standard input; its status and output.
    static func run(_ arguments: [String], input: String, environment: [String: String] = [:]) throws -> (
        status: Int32, output: String, error: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: EntryPointTests.executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }

    @Test func accountHashPrintsAHashOfStandardInput() throws {
        let (status, output, _) = try Self.run(["account", "hash"], input: "correct horse battery\n")
        #expect(status == 0)
        let hash = try PasswordHash(output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(hash.logCost == PasswordHash.defaultLogCost)
        #expect(hash.verifies("correct horse battery"))
        let empty = try Self.run(["account", "hash"], input: "")
        #expect(empty.status == 64)
        #expect(empty.error.contains("no password on standard input"))
    }

    @Test func aPrivateAppSignsInFromItsConfigurationAndLogsNoSecret() throws {
        let password = "the-Password-of-alice-42"
        let hash = try PasswordHash.make(password: password, logCost: 10).description
        let secret = "a-session-secret-for-the-entry-point-test-0123"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cellar-signin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("cellar.yaml")
        try "accounts:\n  alice: {password: \"\(hash)\", groups: [editors]}\n".write(to: config, atomically: true, encoding: .utf8)

        let server = try EntryPointTests.RunningApp(
            ["--host", "127.0.0.1", "--port", "0", "--config", config.path, "--private"], environment: ["CELLAR_SECRET": secret])
        let port = try server.waitForPort()
        let anonymous = try TestHTTPClient.send("GET", "/words", port: port, headers: [("Accept", "text/html")], timeout: .seconds(30))
        #expect(anonymous.status == 303)
        #expect(anonymous.headers["Location"] == "/-/signin?next=%2Fwords")
        let wrong = try TestHTTPClient.send(
            "POST", "/-/signin", port: port, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("account=alice&password=not-\(password)".utf8), timeout: .seconds(30))
        #expect(wrong.status == 401)
        let signIn = try TestHTTPClient.send(
            "POST", "/-/signin?next=/words", port: port, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("account=alice&password=\(password)".utf8), timeout: .seconds(30))
        #expect(signIn.status == 303)
        let cookie = try #require(signIn.headers["Set-Cookie"]).split(separator: ";")[0]
        let page = try TestHTTPClient.send("GET", "/words", port: port, headers: [("Cookie", String(cookie))], timeout: .seconds(30))
        #expect(page.status == 200)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try server.waitForExit() == 0)

        let log = server.log
        #expect(log.contains("signed in"))
        #expect(log.contains("sign-in failed"))
        let cookieValue = String(cookie.dropFirst("cellar_session=".count))
        for secretText in [
            password, "not-\(password)", hash, String(hash.split(separator: "$").last!), secret, cookieValue, String(cookieValue.prefix(20)),
        ] {
            #expect(!log.contains(secretText), "the log holds a secret")
        }
        #expect(!log.contains("sessions will not survive a restart"))
    }

    @Test func sighupReloadsTheAccountsAndKeepsThemWhenTheFileIsBad() throws {
        let alice = try PasswordHash.make(password: "alice-password", logCost: 10).description
        let bob = try PasswordHash.make(password: "bob-password", logCost: 10).description
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cellar-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("cellar.yaml")
        try "accounts:\n  alice: {password: \"\(alice)\"}\n".write(to: config, atomically: true, encoding: .utf8)
        let server = try EntryPointTests.RunningApp(
            ["--host", "127.0.0.1", "--port", "0", "--config", config.path, "--private"], environment: ["CELLAR_SECRET": SignInFixture.key])
        let port = try server.waitForPort()
        func signIn(_ account: String, _ password: String) throws -> String? {
            let response = try TestHTTPClient.send(
                "POST", "/-/signin", port: port, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("account=\(account)&password=\(password)".utf8), timeout: .seconds(30))
            return response.status == 303 ? response.headers["Set-Cookie"].map { String($0.split(separator: ";")[0]) } : nil
        }
        func status(_ cookie: String) throws -> Int {
            try TestHTTPClient.send("GET", "/words", port: port, headers: [("Cookie", cookie), ("Accept", "text/html")], timeout: .seconds(30)).status
        }
        func waitForLog(_ text: String, count: Int) -> Bool {
            for _ in 0..<600 {
                if server.log.components(separatedBy: text).count - 1 >= count { return true }
                usleep(50_000)
            }
            return false
        }
        let aliceCookie = try #require(try signIn("alice", "alice-password"))
        #expect(try status(aliceCookie) == 200)
        #expect(try signIn("bob", "bob-password") == nil)

        try "accounts:\n  bob: {password: \"\(bob)\"}\n".write(to: config, atomically: true, encoding: .utf8)
        kill(server.process.processIdentifier, SIGHUP)
        #expect(waitForLog("reloaded accounts and permissions", count: 1))
        #expect(try status(aliceCookie) == 303)
        let bobCookie = try #require(try signIn("bob", "bob-password"))
        #expect(try status(bobCookie) == 200)

        try "accounts: [not, a, mapping]\n".write(to: config, atomically: true, encoding: .utf8)
        kill(server.process.processIdentifier, SIGHUP)
        #expect(waitForLog("cannot reload accounts and permissions", count: 1))
        #expect(try status(bobCookie) == 200)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try server.waitForExit() == 0)
        #expect(!server.log.contains(bob) && !server.log.contains(alice))
    }
}
