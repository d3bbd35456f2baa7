import Cellar
import Foundation
import Logging
import Testing

@testable import Cellar

/// `accounts:` and `permissions:` as YAML, and what a mistake says (never a hash's value).
@Suite struct AccessConfigurationTests {
    @Test func accountsAndPermissionsAreRead() throws {
        let hash = SignInFixture.aliceHash.description
        let yaml = """
            tables: {notes: {title: Notes}}
            accounts:
              alice: {password: "\(hash)", groups: [editors, admins]}
              bob:
                password: "\(SignInFixture.bobHash)"
            permissions:
              "*": {view: [signed-in]}
              notes: {update: [alice, editors], delete: alice}
              /drafts: {view: [editors], query: [anyone]}
            """
        let configuration = try AccessConfiguration(yaml: yaml, file: "cellar.yaml")
        #expect(configuration.accounts["alice"] == Account(passwordHash: SignInFixture.aliceHash, groups: ["editors", "admins"]))
        #expect(configuration.accounts["bob"]?.groups == [])
        #expect(configuration.accounts["bob"]?.passwordHash.verifies(SignInFixture.bobPassword) == true)
        #expect(configuration.permissions.grants["*"]?[.view] == ["signed-in"])
        #expect(configuration.permissions.grants["notes"]?[.update] == ["alice", "editors"])
        #expect(configuration.permissions.grants["notes"]?[.delete] == ["alice"])
        #expect(configuration.permissions.grants["/drafts"]?[.query] == ["anyone"])
        #expect(configuration.actor(named: "alice") == SignedInActor(name: "alice", groups: ["editors", "admins"]))
        #expect(configuration.actor(named: "carol") == nil)
    }

    @Test(arguments: [
        ("accounts: {alice: {password: \"SECRET-NOT-A-HASH\"}}", "accounts.alice.password"),
        ("accounts: {alice: {groups: [x]}}", "accounts.alice"),
        ("accounts: {\"al ice\": {password: x}}", "accounts.al ice"),
        ("accounts: {anyone: {password: x}}", "accounts.anyone"),
        ("accounts: {alice: {role: admin, password: x}}", "accounts.alice"),
        ("permissions: {notes: {edit: [alice]}}", "permissions.notes"),
        ("permissions: {notes: [alice]}", "permissions.notes"),
        ("accounts: [alice]", "accounts"),
    ])
    func aMistakeNamesItsKeyAndLine(yaml: String, key: String) {
        do {
            _ = try AccessConfiguration(yaml: yaml, file: "cellar.yaml")
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.description.hasPrefix("cellar.yaml:1: \(key): "), "\(error)")
            #expect(!error.description.contains("SECRET-NOT-A-HASH"))
        }
    }

    @Test func aDatabaseConfigurationLeavesAccountsAndPermissionsToCellar() throws {
        let yaml = "accounts: {alice: {password: \"\(SignInFixture.aliceHash)\"}}\npermissions: {\"*\": {view: [signed-in]}}\n"
        #expect(try AccessConfiguration(yaml: yaml, file: "x.yaml").accounts.count == 1)
    }
}

/// `serve`'s sign-in flags are in force in an app with an index: they are applied before the
/// start-up check, which makes the sign-in state once.
@Suite struct SignInFlagsTests {
    @Test func theFlagsReachAnAppWithAnIndex() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cellar-flags-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("cellar.yaml").path
        let secret = folder.appendingPathComponent("secret").path
        try "accounts: {alice: {password: \"\(SignInFixture.aliceHash)\"}}\n".write(toFile: config, atomically: true, encoding: .utf8)
        try (SignInFixture.key + "\n").write(toFile: secret, atomically: true, encoding: .utf8)
        let program = Program(
            name: "test", siteName: "Test", version: "1",
            configure: { app in
                app.indexList(at: "/", title: "Lists")
                app.list("/things", title: "Things") { _ in ListIndexController(title: "Things", entries: [], contentVersion: "1") }
            })
        let options = try AppOptions.parse(["--config", config, "--public", Repository.publicDirectory])
        let flags = try SignInFlags.parse(["--private", "--secret-file", secret, "--session-lifetime", "12h"])
        let app = try program.makeApp(options: options, logger: Logger(label: "test"), signIn: flags)
        let control = try #require(app.accessControl)
        #expect(control.options.isPrivate)
        #expect(control.keys.isEphemeral == false)
        #expect(control.lifetimeSeconds == 12 * 3600)
        #expect(control.current.accounts["alice"] != nil)
    }
}
