import ByteWriters
import Logging
import MicroHTTP

/// Answers an app's own page (``App/page(_:title:_:handler:)``): runs its handler and writes what it
/// wrote inside the site's frame, with the status it returned.
struct PageResponder: Sendable {
    let path: String
    let title: String
    let handler: App.PageHandler
    let app: App.Snapshot

    func respond(to request: Request) throws -> Response {
        var page = PageContent(title: title)
        let status = try app.guardingHandler(of: request, at: path) { try handler(request, &page) }
        var headers = page.headers
        // A redirect or an answer without content has no page to frame.
        if (300..<400).contains(status.code) || status == .noContent || status == .notModified {
            return Response(status: status, headers: headers, body: .empty)
        }
        if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: "text/html; charset=utf-8") }
        if !headers.contains("Cache-Control") { headers.add(name: "Cache-Control", value: "no-cache") }
        var html = HTMLWriter(capacity: page.html.count + 4096)
        let site = app.siteLayout(for: request)
        site.writeHead(title: page.documentTitle ?? page.title, currentPath: path, into: &html, mainClass: page.mainClass)
        html.element("h1", text: page.title)
        html.raw("\n")
        page.html.withUnsafeBytes { html.unsafeRaw(bytes: $0) }
        html.raw("\n")
        site.writeTail(title: page.title, currentPath: path, into: &html)
        return Response(status: status, headers: headers, body: .storage(html.takeStorage()))
    }
}
