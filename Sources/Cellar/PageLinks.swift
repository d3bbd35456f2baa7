import MicroHTTP

/// The URLs of a page and its neighbours, keeping the request's other query items (`q`, …).
struct PageLinks: Sendable {
    let path: String
    let query: QueryItems
    let page: Page
    /// `path?` and the other query items, encoded once: every link of a page starts with it.
    private let prefix: String

    init(path: String, query: QueryItems, page: Page) {
        self.path = path
        var query = query
        for name in ["offset", "limit", "fragment"] { query.set(name, to: nil) }
        self.query = query
        self.page = page
        prefix = path + "?" + (query.isEmpty ? "" : query.percentEncoded + "&")
    }

    func url(offset: Int, limit: Int? = nil, fragment: Bool = false, path: String? = nil) -> String {
        let start = path.map { $0 + "?" + (query.isEmpty ? "" : query.percentEncoded + "&") } ?? prefix
        return start + "offset=" + String(offset) + "&limit=" + String(limit ?? page.limit) + (fragment ? "&fragment=rows" : "")
    }

    var current: String { url(offset: page.offset) }
    var first: String { url(offset: 0) }
    var previous: String? { page.previousOffset.map { url(offset: $0) } }
    var next: String? { page.nextOffset.map { url(offset: $0) } }

    /// The `Link` header: rel next and prev.
    var header: String? {
        var parts: [String] = []
        if let next { parts.append("<\(next)>; rel=\"next\"") }
        if let previous { parts.append("<\(previous)>; rel=\"prev\"") }
        parts.append("<\(first)>; rel=\"first\"")
        return parts.joined(separator: ", ")
    }
}
