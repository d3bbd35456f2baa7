import ArgumentParser
import Logging

/// `routes`: the routes the app mounts, one per line.
struct RoutesCommand: AppSubcommand {
    static let configuration = CommandConfiguration(commandName: "routes", abstract: "List the routes the server mounts.")

    @OptionGroup var options: AppOptions

    func run(_ program: Program) throws {
        var logger = Logger(label: program.name)
        logger.logLevel = .critical
        let app = try program.makeApp(options: options, logger: logger)
        for route in app.makeRouter().routes {
            let method = route.method.rawValue
            print(method + String(repeating: " ", count: max(0, 7 - method.count)) + " \(route.pattern)")
        }
    }
}
