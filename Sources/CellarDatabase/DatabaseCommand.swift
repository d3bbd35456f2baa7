import ArgumentParser
import Cellar

/// `database`: work on the database the lists come from, as its owner rather than as the server.
/// The `cellar` executable adds it to its commands (``App/run(siteName:version:arguments:commands:_:)``):
///
/// ```
/// cellar database install-triggers --database postgres://owner@db.internal/shop
/// cellar database uninstall-triggers --database postgres://owner@db.internal/shop
/// ```
public struct DatabaseCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "database",
        abstract: "Install or remove what lists over PostgreSQL need to follow writes on every replica.",
        subcommands: [InstallTriggers.self, UninstallTriggers.self])

    public init() {}

    /// `--database` (a postgres:// URL, as a role that owns the tables), read as `serve` reads it,
    /// and how long to wait.
    struct Target: ParsableArguments {
        @OptionGroup var database: DatabaseOption

        @Option(help: ArgumentHelp("Seconds to wait for the server, and for the tables' locks.", valueName: "seconds"))
        var timeout: Double = 60

        var location: String? { database.location }

        func validate() throws {
            guard let location, PostgresConnectionInfo.isURL(location) else {
                throw ValidationError("--database (or CELLAR_DATABASE) must be a postgres:// or postgresql:// URL: SQLite needs no triggers.")
            }
            guard timeout > 0 && timeout <= 3600 else { throw ValidationError("--timeout must be more than 0 and at most 3600 seconds.") }
        }

        func connect() throws -> (PostgresConnection, PostgresDeadline) {
            let deadline = PostgresDeadline.seconds(timeout)
            let connection = try PostgresConnection(PostgresConnectionInfo(location ?? ""), statementTimeout: 0, deadline: deadline)
            return (connection, deadline)
        }
    }

    /// Why a command failed, as its operator needs it: the server's error without the command's
    /// own SQL (long, and the same every time), and which role to run it as when rights are missing.
    struct Failure: Error, CustomStringConvertible {
        let description: String

        /// Runs `body`, a server error it throws told as a ``Failure``.
        static func telling<T>(_ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch PostgresError.server(let error) {
                var text = "PostgreSQL \(error.severity) \(error.sqlState): \(error.message)"
                if let detail = error.detail { text += " (\(detail))" }
                if let hint = error.hint { text += " hint: \(hint)" }
                // 42501 insufficient privilege, which "must be owner of table" is too.
                if error.sqlState == "42501" {
                    text += ". Run it as a role that owns the tables and may create in their schema; the role `serve` uses needs SELECT alone."
                }
                throw Failure(description: text)
            }
        }
    }

    struct InstallTriggers: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install-triggers",
            abstract: "Create the change log and a trigger on every table, so that writes reach the watchers of every replica.",
            discussion: """
                In one transaction, and idempotent: the table cellar_changes (SELECT granted to PUBLIC) and the function cellar_note_change() (SECURITY DEFINER: writers need no rights on the log) in the current schema, and a statement-level trigger cellar_changes on every table the search_path shows. Run it again after adding a table: a table made later has no trigger. The function prunes rows older than 24 hours itself, now and then.
                """)

        @OptionGroup var target: Target

        func run() throws {
            let (connection, deadline) = try target.connect()
            let tables = try Failure.telling { try PostgresChangeLog.install(on: connection, deadline: deadline) }
            print(
                "Installed the change log \(PostgresChangeLog.table) and its trigger on \(tables.count) table(s)\(tables.isEmpty ? "" : ": " + tables.joined(separator: ", "))."
            )
        }
    }

    struct UninstallTriggers: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uninstall-triggers",
            abstract: "Remove the triggers, their function and the change log; lists then fall back to polling.")

        @OptionGroup var target: Target

        func run() throws {
            let (connection, deadline) = try target.connect()
            let existed = try Failure.telling { try PostgresChangeLog.uninstall(on: connection, deadline: deadline) }
            print(existed ? "Removed the change log, its function and its triggers." : "There was no change log to remove.")
        }
    }
}
