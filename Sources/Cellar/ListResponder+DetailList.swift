import MicroHTTP
import TableKit

extension ListResponder {
    /// `path/:id` of a list mounted with a `detail:` closure: the row's detail list, answered as
    /// any list is (page, fragment, JSON at `path/:id.json`, paging, live watching), or the row's
    /// fields made by the closure. A closure's nil is a 404 that names the row.
    ///
    /// Unlike a controller's details, the identifier is not looked up among the list's rows: the
    /// closure knows its rows, and a list fetched from a store would otherwise be read twice. So
    /// `/files/a.json` is always row `a`'s JSON (and `a.csv` its CSV).
    func detail(_ request: Request, route: ListRoute, madeBy detail: ListRouteDetail) throws -> Response {
        guard let requested = request.parameters["id"], !requested.isEmpty else { throw HTTPError.notFound() }
        var identifier = requested
        var path = ListFormat.page
        for format in ListFormat.named {
            guard let pathExtension = format.pathExtension, identifier.hasSuffix(pathExtension), identifier.count > pathExtension.count
            else { continue }
            identifier.removeLast(pathExtension.count)
            path = format
            break
        }
        let json = path == .json
        let identifierOfRow = identifier
        let notFound = HTTPError.notFound("\(route.title) has no row “\(identifier.prefix(80))”.")
        switch detail {
        case .list(let makeList):
            let detailRoute = ListRoute(detailOf: route, identifier: identifier) { context in
                guard let controller = try makeList(identifierOfRow, context) else { throw notFound }
                return controller
            }
            return try respond(to: request, route: detailRoute, path: path)
        case .fields(let makeFields):
            let context = ListContext(
                request: request, listPath: route.path, page: PageRequest(firstOf: route.paging), rowIdentifier: identifier)
            guard let fields = try guarded(request, route: route, { try makeFields(identifier, context) }) else { throw notFound }
            return try guarded(request, route: route) {
                if json || request.prefersJSON {
                    return try DetailPage.json(fields, identifier: identifier, cell: nil, item: nil, route: route)
                }
                return DetailPage.html(fields, route: route, site: app.siteLayout(for: request))
            }
        }
    }
}
