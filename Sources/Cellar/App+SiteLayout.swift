import MicroHTTP

extension App.Snapshot {
    /// The frame of a page `request` gets: its actor's name and sign-out button, and a navigation
    /// without the lists it may not view (``AccessControl/unviewable(_:by:)``).
    func siteLayout(for request: Request) -> SiteLayout {
        visibleSite(for: request).signedIn(as: request.actor)
    }

    /// The frame with the navigation `request`'s actor may follow, for a page that names its actor
    /// itself (a list's, on every request: the layout is large, and a copy of it to name the actor
    /// is not free).
    func visibleSite(for request: Request) -> SiteLayout {
        var site = self.site
        guard let accessControl else { return site }
        let hidden = accessControl.unviewable(listPathsByLink.values, by: request)
        guard !hidden.isEmpty else { return site }
        site.navigation.removeAll { link in listPathsByLink[link.path].map(hidden.contains) == true }
        return site
    }
}
