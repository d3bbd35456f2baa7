import ByteWriters
import Cellar
import MicroHTTP

extension App {
    /// Where a database's SQL page is, under the lists' prefix: `/-/query`, its JSON at
    /// `/-/query.json` and its CSV at `/-/query.csv`. No table takes these paths (``listPaths(for:)``).
    static func queryPath(under prefix: String) -> String { prefix + "/-/query" }

    /// Mounts `/-/query` for `database` with the connections `runner` opened: a list (GET, or a
    /// form POST for a statement too long for a URL; its JSON twin likewise) and its CSV.
    func mountQuery(_ database: Database, runner: QueryRunner, at path: String) {
        let defaultLimit = min(database.options.defaultLimit, QueryRunner.rowCap)
        list(
            path, title: "Run SQL", summary: "Run one read-only SQL statement and see its rows",
            paging: .keyset(defaultLimit: defaultLimit, maxLimit: min(database.options.maxLimit, QueryRunner.rowCap)), hasDetail: false,
            acceptsFormPosts: true
        ) { context in
            try QueryListController(runner: runner, context: context, defaultLimit: defaultLimit)
        }
        route(.get, path + ".csv") { request in try Self.queryCSV(request, runner: runner, path: path) }
        route(.post, path + ".csv") { request in try Self.queryCSV(request.withFormInQuery(), runner: runner, path: path) }
    }

    /// The statement's rows as CSV (as a table's CSV writes them), from `offset` on, at most
    /// ``QueryRunner/rowCap`` of them; when it has more, a `Link` header names the next part.
    private static func queryCSV(_ request: Request, runner: QueryRunner, path: String) throws -> Response {
        let sql = request.query["sql"] ?? ""
        guard sql.contains(where: { !$0.isWhitespace }) else {
            throw HTTPError.badRequest("Name the statement to run: /-/query.csv?sql=SELECT…")
        }
        let offset =
            try request.query["offset"].map { text throws(HTTPError) in
                guard let offset = Int(text), offset >= 0 else {
                    throw HTTPError.badRequest("offset must be a whole number of 0 or more (got “\(text.prefix(40))”).")
                }
                return offset
            } ?? 0
        let page = try runner.run(sql, offset: offset, limit: QueryRunner.rowCap)
        var body: [UInt8] = []
        CSVStream.appendHeader(page.columns.map(\.name), to: &body)
        CSVStream.appendRows(page.rows, columns: page.columns.count, to: &body)
        var headers: HTTPHeaders = ["Content-Type": "text/csv; charset=utf-8", "Cache-Control": "no-cache"]
        if page.hasMore {
            let next =
                ListRoute.percentEncodedPath(path) + ".csv?sql=" + PercentEncoding.encoded(sql) { PercentEncoding.isUnreserved($0) }
                + "&offset=\(page.firstRow + page.rows.count)"
            // A statement near the size limit would make a head too large to send.
            if next.utf8.count <= 8 * 1024 { headers.add(name: "Link", value: "<\(next)>; rel=\"next\"") }
        }
        return Response(status: .ok, headers: headers, body: .bytes(body))
    }
}
