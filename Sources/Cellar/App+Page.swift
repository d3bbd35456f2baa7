import MicroHTTP

extension App {
    /// A page handler: writes the page's content into `page` and returns the answer's status.
    public typealias PageHandler = @Sendable (_ request: Request, _ page: inout PageContent) throws -> HTTPStatus

    /// Adds a page of your own inside the site's frame: `handler` writes the content of its
    /// `<main>` with an `HTMLWriter` (``PageContent``) and returns the status, for each of
    /// `methods` (GET, which answers HEAD too, when none is named).
    ///
    /// ```swift
    /// app.page("/notes/new", title: "New note", .get, .post) { request, page in
    ///     if request.method == .post {
    ///         let form = try request.formItems()
    ///         guard let text = form["text"], !text.isEmpty else { throw HTTPError(.unprocessableContent, "A note needs some text.") }
    ///         notes.add(text)
    ///         app.listDidChange(at: "/notes")
    ///         return page.redirect(to: "/notes")
    ///     }
    ///     page.html.raw("<form method=\"post\"><label for=\"text\">Text</label> <input id=\"text\" name=\"text\"> <button>Add</button></form>")
    ///     return .ok
    /// }
    /// ```
    ///
    /// An ``HTTPError`` thrown becomes the site's error page, or its JSON for a client that asked
    /// for JSON; any other error a 500 that says only that the server failed, with the request id
    /// (and what failed with ``showsErrorDetails``), and goes to the log. A 3xx or 204 status
    /// answers without a page. Route parameters (`/notes/:id`) are in `request.parameters`.
    public func page(_ path: String, title: String, _ methods: HTTPMethod..., handler: @escaping PageHandler) {
        for method in methods.isEmpty ? [.get] : methods {
            extraRoutes.append(
                (
                    method, path,
                    { snapshot in
                        let responder = PageResponder(path: path, title: title, handler: handler, app: snapshot)
                        return { request in try responder.respond(to: request) }
                    }
                ))
        }
    }
}
