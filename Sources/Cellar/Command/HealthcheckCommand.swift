import ArgumentParser

/// `healthcheck`: exit 0 when the server here answers `GET /healthz` (or, with `--ready`, `GET /readyz`) with 200.
struct HealthcheckCommand: AppSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Exit 0 if the server here answers GET /healthz with 200, else 1 (for a container HEALTHCHECK without curl).",
        discussion:
            "With --ready it asks GET /readyz instead: whether the server can serve its lists now (its database is reachable), not only whether it answers."
    )

    @Option(help: ArgumentHelp("The server's address (env HOST; 0.0.0.0 and :: mean this machine's loopback).", valueName: "address"))
    var host: String = EnvironmentVariables.string("HOST") ?? "127.0.0.1"

    @Option(help: ArgumentHelp("The server's port (env PORT).", valueName: "port"))
    var port: Int = EnvironmentVariables.int("PORT") ?? 8080

    @Option(help: ArgumentHelp("Seconds to wait for connecting and for the answer.", valueName: "seconds"))
    var timeout: Int = 3

    @Flag(help: "Ask /readyz (can it serve its lists now?) instead of /healthz (does it answer?).")
    var ready = false

    func validate() throws {
        try EnvironmentVariables.validate("PORT")
        guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535 (got \(port)).") }
        guard (1...60).contains(timeout) else { throw ValidationError("--timeout must be between 1 and 60 seconds (got \(timeout)).") }
    }

    func run(_ program: Program) throws {
        // A server listening on every address is reached on loopback.
        let target = host == "0.0.0.0" ? "127.0.0.1" : host == "::" || host == "[::]" ? "::1" : host
        let path = ready ? "/readyz" : "/healthz"
        let (good, bad) = ready ? ("ready", "not ready") : ("healthy", "unhealthy")
        let url = "http://\(target.contains(":") ? "[\(target)]" : target):\(port)\(path)"
        switch HealthProbe.statusLine(host: target, port: port, path: path, timeoutSeconds: timeout) {
        case .success(let statusLine) where statusLine.split(separator: " ").dropFirst().first == "200":
            print("\(good): \(url) answered \(statusLine)")
        case .success(let statusLine):
            writeToStandardError("\(bad): \(url) answered \(statusLine)\n")
            throw ExitCode(1)
        case .failure(let problem):
            writeToStandardError("\(bad): \(url): \(problem.message)\n")
            throw ExitCode(1)
        }
    }
}
