import Foundation
import HTTPTestSupport
import Testing

@testable import Cellar

#if canImport(Glibc)
    import Glibc
#endif

/// No password, hash, key, cookie or token reaches a log line or an error page: a whole sign-in
/// session's worth of requests, good and bad, then every line the server logged, scanned.
@Suite struct SecretsInLogsTests {
    @Test func aSuitesLogHoldsNoSecret() throws {
        let server = try SignInFixture.server { app in
            app.access.permissions.grant(.view, on: "people", to: "editors")
        }
        let keys = try SessionKeys(text: SignInFixture.key)
        let token = try BearerToken.make(
            actor: "alice", scopes: [try BearerToken.Scope("view")], expiresAt: Int64(Date().timeIntervalSince1970) + 3600, keys: keys)
        var pages: [String] = []
        let cookie = try server.signIn("alice", SignInFixture.alicePassword)
        for password in ["wrong-\(SignInFixture.alicePassword)", SignInFixture.bobPassword] {
            pages.append(try server.post("/-/signin", form: "account=alice&password=\(password)").text)
            pages.append(try server.post("/-/signin", form: "account=zelda&password=\(password)", headers: [("Accept", "application/json")]).text)
        }
        pages.append(try server.get("/people", headers: [("Cookie", cookie)]).text)
        pages.append(try server.get("/people.json", headers: [("Cookie", cookie + "x")]).text)
        pages.append(try server.get("/people.json", headers: [("Authorization", "Bearer \(token)")]).text)
        pages.append(try server.get("/people.json", headers: [("Authorization", "Bearer \(token)x")]).text)
        for attempt in 0..<12 { pages.append(try server.post("/-/signin", form: "account=u\(attempt)&password=\(SignInFixture.bobPassword)").text) }
        pages.append(try TestHTTPClient.send("POST", "/-/signout", port: server.port, headers: [("Cookie", cookie)], timeout: .seconds(60)).text)

        let cookieValue = String(cookie.dropFirst("cellar_session=".count))
        let hashes = [SignInFixture.aliceHash.description, SignInFixture.bobHash.description]
        let secrets =
            [SignInFixture.alicePassword, SignInFixture.bobPassword, SignInFixture.key, cookieValue, String(cookieValue.suffix(30)), token]
            + hashes + hashes.map { String($0.split(separator: "$").last!) }
        let lines = server.logs.all.map { entry in ([entry.message] + entry.metadata.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
        #expect(lines.contains { $0.contains("signed in") })
        #expect(lines.contains { $0.contains("sign-in failed") })
        #expect(lines.contains { $0.contains("too many failures") })
        for secret in secrets {
            #expect(!lines.contains { $0.contains(secret) }, "a log line holds a secret")
            #expect(!pages.contains { $0.contains(secret) }, "a page holds a secret")
        }
    }
}

/// The showcase's demo account (`cellar serve --development`): its password on one line of
/// standard error, which is no log line, and nowhere else; without `--development`, no account.
@Suite(.serialized) struct DemoAccountTests {
    /// The showcase executable, built into the same folder as this test binary.
    static let executable: String = {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return binary.deletingLastPathComponent().appendingPathComponent("cellar").path
    }()

    /// `cellar serve` on a port of its own, its standard output (the log) and error in two files.
    final class Showcase {
        let process = Process()
        let log: URL
        let errors: URL

        init(_ arguments: [String]) throws {
            let folder = FileManager.default.temporaryDirectory
            log = folder.appendingPathComponent("cellar-demo-\(UUID().uuidString).log")
            errors = folder.appendingPathComponent("cellar-demo-\(UUID().uuidString).err")
            for file in [log, errors] { FileManager.default.createFile(atPath: file.path, contents: nil) }
            process.executableURL = URL(fileURLWithPath: DemoAccountTests.executable)
            process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0"] + arguments
            var environment = ProcessInfo.processInfo.environment
            environment.removeValue(forKey: "CELLAR_DEVELOPMENT")
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: log)
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            for file in [log, errors] { try? FileManager.default.removeItem(at: file) }
        }

        func text(_ file: URL) -> String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

        /// The port from the log's `listening` line, once it is written.
        func waitForPort() throws -> Int {
            for _ in 0..<1200 {
                if let line = text(log).split(separator: "\n").first(where: { $0.contains("msg=listening") }),
                    let address = line.split(separator: " ").first(where: { $0.hasPrefix("address=") }),
                    let port = address.split(separator: ":").last.flatMap({ Int($0) })
                {
                    return port
                }
                if !process.isRunning { break }
                usleep(50_000)
            }
            Issue.record("no listening line; log:\n\(text(log))\nstandard error:\n\(text(errors))")
            throw CancellationError()
        }

        /// SIGTERM, then the end of the process (a bounded wait, generous for a loaded machine).
        func stop() {
            kill(process.processIdentifier, SIGTERM)
            for _ in 0..<1200 where process.isRunning { usleep(50_000) }
        }

        func signIn(port: Int, _ account: String, _ password: String) throws -> TestHTTPResponse {
            try TestHTTPClient.send(
                "POST", "/-/signin", port: port, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("account=\(account)&password=\(password)".utf8), timeout: .seconds(60))
        }
    }

    @Test func developmentPrintsTheDemoPasswordOnceOnStandardErrorAndNeverInTheLog() throws {
        let showcase = try Showcase(["--development"])
        let port = try showcase.waitForPort()
        let lines = showcase.text(showcase.errors).split(separator: "\n").filter { $0.hasPrefix("Demo account: demo, password ") }
        try #require(lines.count == 1, "standard error: \(showcase.text(showcase.errors))")
        let password = String(lines[0].dropFirst("Demo account: demo, password ".count).prefix { $0 != " " })
        #expect(password.count == 20)

        let signedIn = try showcase.signIn(port: port, "demo", password)
        #expect(signedIn.status == 303)
        #expect(signedIn.headers["Set-Cookie"]?.hasPrefix("cellar_session=") == true)
        let wrong = try showcase.signIn(port: port, "demo", "x" + password)
        #expect(wrong.status == 401)
        #expect(!wrong.text.contains(password))
        showcase.stop()

        // The one line knows the password; the log, every other line of standard error and the pages do not.
        let log = showcase.text(showcase.log)
        #expect(log.contains("signed in"))
        #expect(!log.contains(password), "the log holds the demo password")
        #expect(showcase.text(showcase.errors).components(separatedBy: password).count == 2)
    }

    @Test func withoutDevelopmentThereIsNoDemoAccount() throws {
        let showcase = try Showcase([])
        let port = try showcase.waitForPort()
        #expect(!showcase.text(showcase.errors).contains("Demo account"))
        // No accounts at all: the site does not sign people in.
        #expect(try TestHTTPClient.send("GET", "/-/signin", port: port, timeout: .seconds(60)).status == 404)
        #expect(try showcase.signIn(port: port, "demo", "anything").status != 303)
        showcase.stop()
    }
}
