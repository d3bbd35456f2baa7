import Cellar
import MicroHTTP

extension QueryListController: CSVResponding {
    /// `/-/query.csv`: the statement's rows from `offset` on, at most the row cap
    /// (``App/queryCSV(_:runner:source:path:)``).
    func csvResponse(to request: Request) throws -> Response {
        try App.queryCSV(request, runner: runner, source: source, path: context.listPath)
    }
}
