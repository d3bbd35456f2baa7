/// An account that can sign in: its password's hash and the groups it belongs to.
///
/// ```swift
/// app.access.accounts["alice"] = try Account(passwordHash: "$scrypt$ln=15,r=8,p=1$…", groups: ["editors"])
/// ```
public struct Account: Sendable, Equatable {
    public var passwordHash: PasswordHash
    public var groups: Set<String>

    public init(passwordHash: PasswordHash, groups: Set<String> = []) {
        self.passwordHash = passwordHash
        self.groups = groups
    }

    /// An account from a hash as `cellar account hash` prints it.
    public init(passwordHash: String, groups: Set<String> = []) throws(PasswordHashError) {
        self.init(passwordHash: try PasswordHash(passwordHash), groups: groups)
    }

    /// Whether `name` can name an account: 1 to 64 letters, digits, `.`, `_`, `-` or `@`, and not
    /// one of the words grants use (`anyone`, `signed-in`).
    public static func isValidName(_ name: String) -> Bool {
        guard (1...64).contains(name.utf8.count), name != Permissions.anyone, name != Permissions.signedIn else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
        }
    }
}

/// Who a request acts for: a signed-in account's name and its groups, read from the
/// configuration on each request.
public struct SignedInActor: Sendable, Equatable {
    public let name: String
    public let groups: Set<String>

    public init(name: String, groups: Set<String> = []) {
        self.name = name
        self.groups = groups
    }
}
