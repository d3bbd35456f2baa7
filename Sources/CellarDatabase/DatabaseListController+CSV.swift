import Cellar
import MicroHTTP

extension DatabaseListController: CSVResponding {
    /// `/{table}.csv`: every row the query selects, read in keyset batches (``CSVStream``).
    public func csvResponse(to request: Request) throws -> Response {
        try CSVStream.response(list: list, database: database, request: request)
    }
}
