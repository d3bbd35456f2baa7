import ByteWriters
import MicroHTTP

/// The errors of the JSON write API (`POST /{table}/-/insert`, `…/-/upsert`, `/{table}/{key}/-/update`,
/// `…/-/delete`, and the same on an app's editable lists, `ListWriteResponder`) in Datasette 1.0's shape, `{"ok": false, "errors": ["…"]}`, whatever the request's
/// `Accept`: a client written for Datasette reads every refusal the same way, the server's own
/// (a 404, a 405, a 413 for a body over the limit, a 401 for a bad token) included.
public enum WriteAPIErrors {
    /// The last segments of the write API's paths.
    static let actions = ["/-/insert", "/-/upsert", "/-/update", "/-/delete"]

    /// Whether `request` is one of the write API's: a POST to one of its paths, or any request to
    /// a path that only the API answers (an update's or a delete's).
    /// A browser's form posted there (a row page's Delete button) is answered as a page instead.
    public static func applies(to request: Request) -> Bool {
        guard !isBrowserForm(request) else { return false }
        let path = request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
        guard let action = actions.first(where: { path.hasSuffix($0) }) else { return false }
        return request.method == .post || action == "/-/update" || action == "/-/delete" || action == "/-/upsert"
    }

    /// Whether `request` is a browser's HTML form: a form's body (`application/x-www-form-urlencoded`
    /// or `multipart/form-data`) from a client that asks for HTML, as a browser's form navigation
    /// does. Its refusals are pages. `curl -d` sends a form's type too, but asks for anything
    /// (`Accept: */*`): a script's refusals stay JSON.
    public static func isBrowserForm(_ request: Request) -> Bool {
        guard let type = request.headers["Content-Type"]?.lowercased(),
            type.hasPrefix("application/x-www-form-urlencoded") || type.hasPrefix("multipart/form-data")
        else { return false }
        return request.headers["Accept"]?.lowercased().contains("text/html") == true
    }

    /// The answer listing `messages`, with `status`.
    public static func response(_ status: HTTPStatus, _ messages: [String]) -> Response {
        var json = JSONWriter()
        json.raw("{\"ok\":false,\"errors\":[")
        for (index, message) in messages.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(message)
        }
        json.raw("]}")
        var response = Response(status: status, headers: ["Content-Type": "application/json"], body: .storage(json.takeStorage()))
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }
}
