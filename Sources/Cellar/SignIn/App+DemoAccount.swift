extension App {
    /// The start of the one line on standard error that holds the demo account's password.
    static let demoAccountLine = "Demo account: "

    /// In development only (``isDevelopment``, `--development`), an account `name` with a new random
    /// password, so that a person trying the app can sign in. The password is written once on
    /// standard error, beside the `Error:` lines of a failed start and not in the log (which is on
    /// standard output, and may be kept or shipped); a restart makes another. Without
    /// `--development` nothing is added: no server in production has an account no one configured.
    ///
    /// ```swift
    /// App.run { app in
    ///     try app.addDemoAccount()
    /// }
    /// ```
    ///
    /// - Returns: whether the account was added.
    @discardableResult
    public func addDemoAccount(named name: String = "demo", groups: Set<String> = []) throws -> Bool {
        guard isDevelopment else { return false }
        guard Account.isValidName(name) else { throw DemoAccountError(name: name) }
        let password = Self.demoPassword()
        access.accounts[name] = Account(passwordHash: try PasswordHash.make(password: password), groups: groups)
        writeToStandardError("\(Self.demoAccountLine)\(name), password \(password) (--development only: sign in at \(SignInPage.path))\n")
        return true
    }

    /// 20 characters of letters and digits without the look-alikes (0, O, 1, l, I), from the
    /// system's cryptographic generator (`getrandom` on Linux): about 116 bits.
    static func demoPassword() -> String {
        let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet.randomElement(using: &generator)! })
    }
}

/// A demo account's name that is not an account name (letters, digits, `.`, `_`, `-`, `@`; at most 64 bytes).
public struct DemoAccountError: Error, CustomStringConvertible, Sendable {
    public let name: String
    public var description: String { "the demo account's name '\(name)' is not a valid account name" }
}
