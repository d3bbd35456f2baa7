import ArgumentParser
import FoundationEssentials

/// `token create`: prints a bearer token for scripts, signed with the session keys.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "token", abstract: "Bearer tokens for scripts.", subcommands: [Create.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Print a signed bearer token (Authorization: Bearer …) for an account, limited to the actions it names.",
            discussion: """
                Signed with the server's session keys (CELLAR_SECRET or --secret-file, the same as serve's).
                  cellar token create --actor alice --allow view --allow update:/notes --expires 30d
                It grants what it names and what its account may do, no more; revoke it by its id (on standard
                error) in the configuration's revoked_tokens: [id].
                """)

        @Option(help: ArgumentHelp("The account the token acts for.", valueName: "name"))
        var actor: String

        @Option(
            name: .customLong("allow"),
            help: ArgumentHelp("An action, on every list or one: view, update:/notes, query (repeat for more).", valueName: "action[:list]"))
        var allow: [String] = []

        @Option(help: ArgumentHelp("How long it lasts: 30d (the default), 12h, 90m or seconds.", valueName: "duration"))
        var expires: String = "30d"

        @Option(name: .customLong("secret-file"), help: ArgumentHelp("The session keys' file (or CELLAR_SECRET).", valueName: "path"))
        var secretFile: String?

        func validate() throws {
            guard Account.isValidName(actor) else { throw ValidationError("--actor must name an account (letters, digits, . _ - @).") }
            guard !allow.isEmpty else { throw ValidationError("Name at least one action with --allow (view, insert, update, delete, query).") }
            for scope in allow {
                do { _ = try BearerToken.Scope(scope) } catch { throw ValidationError("--allow \(error)") }
            }
            guard let seconds = SignInFlags.seconds(expires), seconds >= 60 else {
                throw ValidationError("--expires must be 1m or more, as 30d, 12h, 90m or seconds (got '\(expires)').")
            }
        }

        func run() throws {
            let keys: SessionKeys
            do {
                if let secretFile {
                    keys = try SessionKeys.load(path: secretFile)
                } else if let secret = EnvironmentVariables.string("CELLAR_SECRET") {
                    keys = try SessionKeys(text: secret)
                } else {
                    writeToStandardError("Error: no key to sign with: set CELLAR_SECRET or --secret-file, as the server has them\n")
                    throw ExitCode.validationFailure
                }
            } catch let error as SessionKeyError {
                writeToStandardError("Error: \(error)\n")
                throw ExitCode.validationFailure
            }
            let scopes = try allow.map { try BearerToken.Scope($0) }
            let expiresAt = Int64(Date().timeIntervalSince1970) + (SignInFlags.seconds(expires) ?? 30 * 86_400)
            let token = try BearerToken.make(actor: actor, scopes: scopes, expiresAt: expiresAt, keys: keys)
            print(token)
            if let id = token.split(separator: ".").dropFirst().first.flatMap({ Base64URL.decoded($0) }).flatMap({
                String(validating: $0, as: UTF8.self)
            })?
            .split(separator: "\n").first {
                writeToStandardError("token id \(id) (revoke it with revoked_tokens: [\(id)])\n")
            }
        }
    }
}
