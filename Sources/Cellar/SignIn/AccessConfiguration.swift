import FoundationEssentials
import Yams

/// Who can sign in and what each may do: the `accounts:` and `permissions:` of the configuration
/// file `--config` (`CELLAR_CONFIG`) names, or set from Swift on ``App/access``.
///
/// ```yaml
/// accounts:
///   alice: {password: "$scrypt$ln=15,r=8,p=1$…", groups: [editors]}   # cellar account hash
///   bob: {password: "$scrypt$ln=15,r=8,p=1$…"}
/// permissions:
///   notes: {update: [alice, editors]}
/// ```
///
/// `revoked_tokens: [id, …]` lists bearer tokens no longer accepted (`cellar token create` prints
/// a token's id). Other top-level keys (a database's `tables:`, `queries:`, `sql:`) are left to their readers.
public struct AccessConfiguration: Sendable, Equatable {
    public var accounts: [String: Account] = [:]
    public var permissions = Permissions()
    /// Ids of bearer tokens no longer accepted (`revoked_tokens: [id, …]`).
    public var revokedTokens: Set<String> = []

    public init() {}

    /// The signed-in actor named `name`, with its groups, or nil when no such account exists.
    public func actor(named name: String) -> SignedInActor? {
        accounts[name].map { SignedInActor(name: name, groups: $0.groups) }
    }

    /// Reads `accounts:` and `permissions:` from YAML text; `file` names it in messages.
    public init(yaml: String, file: String) throws(AccessConfigurationError) {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw AccessConfigurationError(file: file, line: nil, key: nil, message: "not valid YAML")
        }
        guard let root else { return }
        guard let top = root.mapping else {
            throw AccessConfigurationError(file: file, line: root.mark?.line, key: nil, message: "expected a mapping")
        }
        func fail(_ node: Node, _ key: String, _ message: String) -> AccessConfigurationError {
            AccessConfigurationError(file: file, line: node.mark?.line, key: key, message: message)
        }
        func names(_ node: Node, _ key: String) throws(AccessConfigurationError) -> [String] {
            if let scalar = node.scalar { return [scalar.string] }
            guard let sequence = node.sequence else { throw fail(node, key, "expected a list of names") }
            var result: [String] = []
            for item in sequence {
                guard let scalar = item.scalar else { throw fail(item, key, "expected a name") }
                result.append(scalar.string)
            }
            return result
        }
        if let node = top["accounts"] {
            guard let mapping = node.mapping else { throw fail(node, "accounts", "expected a mapping of account names to {password, groups}") }
            for (nameNode, value) in mapping {
                let name = nameNode.string ?? ""
                let key = "accounts.\(name)"
                guard Account.isValidName(name) else {
                    throw fail(nameNode, key, "an account's name is 1 to 64 letters, digits, ., _, - or @, and not anyone or signed-in")
                }
                guard let fields = value.mapping else { throw fail(value, key, "expected {password: <hash>, groups: [...]}") }
                var hash: PasswordHash?
                var groups: Set<String> = []
                for (fieldNode, fieldValue) in fields {
                    switch fieldNode.string {
                    case "password":
                        // The message never repeats the value: it is a secret.
                        guard let text = fieldValue.scalar?.string, let parsed = try? PasswordHash(text) else {
                            throw fail(fieldValue, key + ".password", "expected a hash as `cellar account hash` prints it ($scrypt$…)")
                        }
                        hash = parsed
                    case "groups":
                        groups = Set(try names(fieldValue, key + ".groups"))
                    default:
                        throw fail(fieldNode, key, "unknown key “\(fieldNode.string ?? "")”; the keys here are groups, password")
                    }
                }
                guard let hash else { throw fail(value, key, "an account needs its password's hash (cellar account hash)") }
                accounts[name] = Account(passwordHash: hash, groups: groups)
            }
        }
        if let node = top["revoked_tokens"] { revokedTokens = Set(try names(node, "revoked_tokens")) }
        if let node = top["permissions"] {
            guard let mapping = node.mapping else {
                throw fail(node, "permissions", "expected a mapping of lists (a path, a table's name or \"*\") to {action: [who]}")
            }
            for (listNode, value) in mapping {
                let list = listNode.string ?? ""
                let key = "permissions.\(list)"
                guard let actions = value.mapping else { throw fail(value, key, "expected a mapping of actions to lists of names") }
                for (actionNode, granteesNode) in actions {
                    guard let action = Action(rawValue: actionNode.string ?? "") else {
                        let known = Action.allCases.map(\.rawValue).joined(separator: ", ")
                        throw fail(actionNode, key, "unknown action “\(actionNode.string ?? "")”; the actions are \(known)")
                    }
                    permissions.grants[list, default: [:]][action, default: []].formUnion(try names(granteesNode, key + "." + action.rawValue))
                }
            }
        }
    }

    /// The configuration in the file at `path`.
    public static func load(path: String) throws(AccessConfigurationError) -> AccessConfiguration {
        guard let data = FileManager.default.contents(atPath: path), let text = String(validating: data, as: UTF8.self) else {
            throw AccessConfigurationError(file: path, line: nil, key: nil, message: "cannot read the configuration file")
        }
        return try AccessConfiguration(yaml: text, file: path)
    }
}

/// A configuration's accounts or permissions that cannot be used: where, and why (never the value
/// of a password hash).
public struct AccessConfigurationError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let line: Int?
    public let key: String?
    public let message: String

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): " + (key.map { "\($0): " } ?? "") + message
    }
}
