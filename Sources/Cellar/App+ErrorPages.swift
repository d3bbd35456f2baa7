import MicroHTTP

extension App {
    /// The styled error pages (HTML, or JSON for JSON clients), for ``ServerConfiguration/errorRenderer``.
    ///
    /// Their frame is a list page's: the navigation of the router made last (so a table created in
    /// the database while serving is there, as on every other page), without the lists the
    /// request's actor may not view, and the actor's name with its sign-out button.
    public var errorRenderer: ServerConfiguration.ErrorRenderer {
        let atStart = snapshot()
        let serving = servingSnapshot
        return { error, request in
            let app = serving.withLock { $0 } ?? atStart
            return ErrorPages.response(for: error, request: request, site: app.errorPageSite(for: request))
        }
    }
}

extension App.Snapshot {
    /// ``siteLayout(for:)`` for a request as the server read it: an error is rendered outside the
    /// middleware, so the request's actor is found here as the sign-in middleware finds it.
    func errorPageSite(for request: Request) -> SiteLayout {
        guard let accessControl, request.actor == nil else { return siteLayout(for: request) }
        var identified = request
        identified.actor = accessControl.actorName(identifying: request)
        return siteLayout(for: identified)
    }
}
