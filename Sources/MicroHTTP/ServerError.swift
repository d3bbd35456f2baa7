/// Why a ``Server`` could not start.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host is not an IPv4 or IPv6 literal (nor `localhost`).
    case invalidHost(String)
    /// A configuration value is out of range; the message says which and why.
    case invalidConfiguration(String)
    /// libmicrohttpd could not bind or start (port in use, permission denied…).
    case bindFailed(host: String, port: Int, reason: String)
    /// `start()` was called on a server that is running or has been stopped.
    case alreadyStarted
    /// The stop-signal handlers could not be installed (see ``StopSignals``).
    case signalSetupFailed(reason: String)

    public var description: String {
        switch self {
        case .invalidHost(let host):
            "Invalid host \"\(host)\": use an IPv4 or IPv6 address such as 127.0.0.1, 0.0.0.0 or ::1, or localhost."
        case .invalidConfiguration(let message):
            "Invalid server configuration: \(message)"
        case .bindFailed(let host, let port, let reason):
            "Could not listen on \(host):\(port): \(reason)"
        case .alreadyStarted:
            "The server has already been started; create a new Server to start again."
        case .signalSetupFailed(let reason):
            "Could not install the stop-signal handlers: \(reason)"
        }
    }
}
