import ByteWriters
import MicroHTTP
import TableKit

extension ListFormat {
    /// Every row the request's query selects as CSV (`/people.csv`, or `Accept: text/csv`): its
    /// filters, search and order, not its page (`offset`, `limit` and `cursor` are dropped).
    ///
    /// A controller that writes its own CSV (``CSVResponding``: a database table's, a query's)
    /// answers; any other list's rows are written by ``CSVListStream``, one column per field of
    /// its rows' JSON items.
    static let csv = ListFormat(
        name: "csv", label: "CSV", pathExtension: ".csv", contentType: "text/csv; charset=utf-8",
        isAccepted: { ListFormat.accepts($0, mediaType: "text/csv") }, answer: .wholeList(respondWithCSV))

    private static func respondWithCSV(_ responder: ListResponder, _ request: Request, _ route: ListRoute) throws -> Response {
        var rows = request
        rows.query.removeAll { $0.name == "offset" || $0.name == "limit" || $0.name == "cursor" || $0.name == "fragment" }
        rows.rawQuery = rows.query.isEmpty ? nil : rows.query.percentEncoded
        let context = ListContext(request: rows, listPath: route.path, page: CSVListStream.firstPage(of: route.paging))
        let controller = try responder.makeController(context, route: route)
        if let writing = controller as? any CSVResponding {
            return try responder.guarded(request, route: route) { try writing.csvResponse(to: request) }
        }
        if case .redirect(let target) = controller.action { return .redirect(to: target) }
        let stream = try responder.guarded(request, route: route) {
            try CSVListStream(controller: controller, request: rows, route: route, responder: responder)
        }
        return Response(status: .ok, headers: ["Content-Type": csv.contentType, "Cache-Control": "no-cache"], body: .stream(stream))
    }
}

/// A list controller that answers its list's CSV itself: a database table's, read in keyset
/// batches of its own, or a query's, which pages by offset.
public protocol CSVResponding: TableController {
    /// The list's rows as CSV. `request` is the request as sent (its paging items kept, for a
    /// CSV that pages); the controller was made from it without them.
    func csvResponse(to request: Request) throws -> Response
}
