import ArgumentParser

/// `account hash`: reads a password from standard input and prints its hash, for `accounts:`.
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Accounts for sign-in.", subcommands: [HashCommand.self])

    struct HashCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hash",
            abstract: "Read a password from standard input (its first line) and print its scrypt hash, for the configuration's accounts.",
            discussion: """
                printf '%s' 'correct horse battery staple' | cellar account hash
                Put what it prints in --config's file:
                  accounts:
                    alice: {password: "$scrypt$…", groups: [editors]}
                """)

        func run() throws {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                writeToStandardError("Error: no password on standard input: pipe one in (printf '%s' 'the password' | … account hash)\n")
                throw ExitCode.validationFailure
            }
            do {
                print(try PasswordHash.make(password: line))
            } catch {
                writeToStandardError("Error: \(error)\n")
                throw ExitCode(70)
            }
        }
    }
}
