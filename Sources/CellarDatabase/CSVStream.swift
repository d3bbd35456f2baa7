import ByteWriters
import Cellar
import MicroHTTP
import TableKit

/// `/{name}.csv`: every row the list's query selects — its filters, search and order, not its
/// page — as CSV (RFC 4180: a header row, CRLF line ends, fields quoted where they must be, NULL
/// as an empty field, blobs in base64, a text a spreadsheet would run as a formula after a `'`:
/// ``CSVFields``).
///
/// Rows are read in keyset batches, each its own short read within the query time limit, and
/// written a batch per part of the response: memory stays at one batch whatever the row count,
/// and no connection is held while a slow client takes its time.
final class CSVStream: ResponseBodyProducer {
    private let list: TableList
    private let database: Database
    private let query: TableQuery
    private let batchSize: Int
    private var rows: FetchedRows
    private var cursor: ListCursor?
    private var offset = 0
    private var finished = false
    private var headerWritten = false

    /// Checks the request's parameters and reads the first batch, so that a bad parameter or a
    /// query over the time limit is answered with its status before any byte is sent.
    init(list: TableList, database: Database, request: Request, batchSize: Int = 1000) throws {
        self.list = list
        self.database = database
        self.batchSize = batchSize
        let context = ListContext(request: request, listPath: list.path, page: PageRequest(firstOf: .keyset()))
        query = try TableQuery(list: list, context: context)
        rows = FetchedRows(columnCount: list.selectedColumnCount)
        try fetchBatch()
    }

    static func response(list: TableList, database: Database, request: Request) throws -> Response {
        let stream = try CSVStream(list: list, database: database, request: request)
        return Response(
            status: .ok, headers: ["Content-Type": "text/csv; charset=utf-8", "Cache-Control": "no-cache"], body: .stream(stream))
    }

    private func fetchBatch() throws {
        rows = FetchedRows(columnCount: rows.columnCount)
        let (sql, values) = query.pageSQL(after: cursor, offset: offset, limit: batchSize)
        try database.read { connection in try connection.appendRows(of: sql, values, to: &rows) }
        if rows.count > batchSize {
            rows.removeLastRow()
        } else {
            finished = true
        }
        if let last = rows.count > 0 ? rows.count - 1 : nil {
            if list.hasKey {
                cursor = ListCursor(
                    position: 0, orderSignature: query.orderSignature,
                    values: query.order.map { rows.databaseValue(row: last, column: $0.column) })
            } else {
                offset += rows.count
            }
        }
    }

    func produce(into buffer: inout [UInt8]) throws -> Bool {
        if headerWritten {
            try fetchBatch()
        } else {
            headerWritten = true
            Self.appendHeader(list.visibleColumns.map { list.columns[$0].name }, to: &buffer)
        }
        Self.appendRows(rows, columns: list.visibleColumns, to: &buffer)
        return !finished
    }

    /// The header row: each column's name.
    static func appendHeader(_ names: [String], to buffer: inout [UInt8]) {
        CSVFields.appendRecord(names, to: &buffer)
    }

    /// Each row's first `columns` values, a line each: text as ``CSVFields`` writes it (quoted
    /// where it must be, a formula disarmed), numbers as they are, blobs in base64.
    static func appendRows(_ rows: FetchedRows, columns: Int, to buffer: inout [UInt8]) {
        appendRows(rows, columns: Array(0..<columns), to: &buffer)
    }

    /// Each row's values of `columns`, in that order (a list's without its secret columns).
    static func appendRows(_ rows: FetchedRows, columns: [Int], to buffer: inout [UInt8]) {
        for row in 0..<rows.count {
            for (place, column) in columns.enumerated() {
                if place > 0 { CSVFields.appendSeparator(to: &buffer) }
                switch rows.value(row: row, column: column) {
                case .null: break
                case .integer(let integer): CSVFields.appendPlain(String(integer).utf8, to: &buffer)
                case .real(let real): CSVFields.appendPlain(DatabaseValue.text(for: real).utf8, to: &buffer)
                case .text(let range): rows.withBytes(range) { CSVFields.appendText($0, to: &buffer) }
                case .blob(let range): CSVFields.appendPlain(rows.withBytes(range) { DatabaseListController.base64($0) }.utf8, to: &buffer)
                }
            }
            CSVFields.appendRecordEnd(to: &buffer)
        }
    }
}
