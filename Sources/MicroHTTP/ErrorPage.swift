import ByteWriters

/// The default rendering of an ``HTTPError``: a small HTML page, or JSON when the client prefers it.
///
/// HTML: `<!doctype html>`, the title "404 Not Found", the escaped message and the request id.
/// JSON: `{"error":{"status":404,"message":"…","requestID":"…"}}`.
/// Written by ByteWriters' `HTMLWriter` and `JSONWriter`, so a message is escaped exactly as a
/// list's text is (the forbidden code points as U+FFFD in HTML; U+2028, U+2029 and the
/// bidirectional controls as `\u` escapes in JSON). Replace it with
/// ``ServerConfiguration/errorRenderer`` to render styled pages.
public enum ErrorPage {
    /// Renders `error` for `request`.
    @Sendable public static func render(_ error: HTTPError, for request: Request) -> Response {
        if request.prefersJSON { return json(error, for: request) }
        var html = HTMLWriter()
        html.raw(
            """
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>
            """)
        html.text(error.status.description)
        html.raw("</title></head>\n<body>\n")
        html.element("h1", text: error.status.description)
        html.raw("\n")
        html.element("p", text: error.message)
        html.raw("\n<p><small>Request ID: <code>")
        html.text(request.id)
        html.raw("</code></small></p>\n</body>\n</html>\n")
        return Response(status: error.status, headers: ["Content-Type": "text/html; charset=utf-8"], body: .storage(html.takeStorage()))
    }

    /// The JSON rendering of `error`, whatever the client prefers.
    public static func json(_ error: HTTPError, for request: Request) -> Response {
        var json = JSONWriter()
        json.raw("{\"error\":{\"status\":")
        json.number(error.status.code)
        json.string(after: ",\"message\":", error.message)
        json.string(after: ",\"requestID\":", request.id)
        json.raw("}}")
        return Response(status: error.status, headers: ["Content-Type": "application/json"], body: .storage(json.takeStorage()))
    }
}
