import ArgumentParser
import Logging

/// `routes`: the routes the app mounts, one per line.
struct RoutesCommand: AppSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "routes", abstract: "List the routes the server mounts.",
        discussion: "Exits 69 when a database cannot be reached: the routes of its lists are not known, and the others are listed.")

    @OptionGroup var options: AppOptions

    func run(_ program: Program) throws {
        var logger = Logger(label: program.name)
        logger.logLevel = .critical
        let app = try program.makeApp(options: options, logger: logger)
        for route in app.makeRouter().routes {
            let method = route.method.rawValue
            print(method + String(repeating: " ", count: max(0, 7 - method.count)) + " \(route.pattern)")
        }
        // Lists that wait for what cannot be reached now (a database down) have no routes to show
        // yet: the ones above are what exists, and the status says they are not all.
        guard app.deferredMounts.isEmpty else {
            for mount in app.deferredMounts {
                writeToStandardError("\(mount.name) cannot be reached, so its lists' routes are not shown: \(mount.reason)\n")
            }
            throw ExitCode(Self.incomplete)
        }
    }

    /// The status when some lists' routes cannot be shown (sysexits' EX_UNAVAILABLE).
    static let incomplete: Int32 = 69
}
