import MicroHTTP

/// The three answers of a list URL: a full page, the rows alone, or JSON.
public enum ListFormat: String, Sendable {
    /// The HTML document: layout, title, sections, pager.
    case page
    /// Only the sections and the pager, to append to a page ("load more", infinite scroll).
    case fragment
    /// The same rows as JSON.
    case json

    /// The format a request asks for: `.json` paths and `Accept: application/json` get JSON;
    /// `?fragment=rows` or `HX-Request: true` get the fragment; everything else the page.
    public static func negotiate(_ request: Request, pathRequestsJSON: Bool) throws(HTTPError) -> ListFormat {
        if pathRequestsJSON { return .json }
        if let fragment = request.query["fragment"] {
            guard fragment == "rows" else {
                throw HTTPError.badRequest("fragment must be “rows” (got “\(fragment.prefix(40))”).")
            }
            return request.prefersJSON ? .json : .fragment
        }
        if request.prefersJSON { return .json }
        if request.headers["HX-Request"]?.lowercased() == "true" { return .fragment }
        return .page
    }

    var contentType: String {
        switch self {
        case .page, .fragment: "text/html; charset=utf-8"
        case .json: "application/json"
        }
    }
}
