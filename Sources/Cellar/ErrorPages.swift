import MicroHTTP
import TableKit

/// Error responses in the site's style: an HTML page, or JSON for clients that asked for JSON.
enum ErrorPages {
    static func response(for error: HTTPError, request: Request, site: SiteLayout) -> Response {
        var response: Response
        if WriteAPIErrors.applies(to: request) {
            response = WriteAPIErrors.response(error.status, [error.message])
        } else if request.prefersJSON || request.path.hasSuffix(".json") {
            response = ErrorPage.json(error, for: request)
        } else {
            var html = HTMLWriter(capacity: 2048)
            let title = "\(error.status.code) \(error.status.reasonPhrase)"
            site.writeHead(title: title, currentPath: "", into: &html, mainClass: "error-page")
            html.element("h1", text: title)
            html.raw("\n")
            html.element("p", text: error.message)
            html.raw("\n<p class=\"request-id\">Request id: <code>")
            html.text(request.id)
            html.raw("</code></p>\n")
            html.unsafeRaw(bytes: site.homeParagraph)
            site.writeTail(title: title, currentPath: "", into: &html)
            response = Response(
                status: error.status, headers: ["Content-Type": "text/html; charset=utf-8"], body: .storage(html.takeStorage()))
        }
        for (name, value) in error.headers { response.headers.replaceOrAdd(name: name, value: value) }
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }
}
