import ByteWriters
import MicroHTTP

/// Something the app needs before it can answer its lists — a database it can read, say —
/// checked on every `GET /readyz`.
///
/// `/healthz` says the process answers (liveness: restart it when it does not); `/readyz` says
/// whether it can serve (readiness: a proxy or Kubernetes sends it no traffic while it cannot,
/// without restarting it). A check throws when the app cannot serve; the error's text is shown,
/// so it must not hold secrets.
///
/// ```swift
/// app.addReadinessCheck("search index") { try index.ping() }
/// ```
///
/// CellarDatabase adds one for each database it mounts.
public struct ReadinessCheck: Sendable {
    public let name: String
    let check: @Sendable () throws -> Void

    public init(_ name: String, _ check: @escaping @Sendable () throws -> Void) {
        self.name = name
        self.check = check
    }

    /// Seconds a client waits before asking again when a check fails.
    static let retryAfterSeconds = 5

    /// `/readyz`: 200 with every check passed, else 503 with `Retry-After`; a JSON body names each
    /// check and, for a failed one, why.
    static func response(for checks: [ReadinessCheck]) -> Response {
        var json = JSONWriter()
        var ready = true
        json.raw("{\"checks\":[")
        for (position, readiness) in checks.enumerated() {
            if position > 0 { json.raw(",") }
            json.raw("{\"name\":")
            json.string(readiness.name)
            do {
                try readiness.check()
                json.raw(",\"ok\":true}")
            } catch {
                ready = false
                json.raw(",\"ok\":false,\"error\":")
                json.string(Self.message(for: error))
                json.raw("}")
            }
        }
        json.raw("],\"status\":")
        json.string(ready ? "ready" : "unavailable")
        json.raw("}\n")
        var response = Response.json(json.takeBytes(), status: ready ? .ok : .serviceUnavailable)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        if !ready { response.headers.replaceOrAdd(name: "Retry-After", value: String(retryAfterSeconds)) }
        return response
    }

    /// An ``HTTPError``'s message (what a list would answer), or the error's description.
    static func message(for error: any Error) -> String {
        if let error = error as? HTTPError { return error.message }
        return String(describing: error)
    }
}
