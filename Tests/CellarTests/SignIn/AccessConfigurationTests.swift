import Cellar
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
