import ByteWriters
import MicroHTTP
import TableKit

/// An app's list as CSV: a header row, then each row's JSON item (as the list's JSON writes it,
/// ``JSONItemWriting`` or `Encodable`) as a record, one column per top-level field
/// (``JSONItemFields``) of the first ``columnSample`` rows' items, in the order the fields are
/// first met; a row without a field has an empty one, and a field first met further down is left
/// out. Rows without an item are left out; a list none of whose first rows has one is its rows'
/// identifiers, one column `id`.
///
/// The rows are written about 64 KiB a part: memory stays at one part and one row's item,
/// whatever the list's length. A list whose controller fetches its pages
/// (``FetchedPageController``) is fetched page after page at its largest size.
final class CSVListStream: ResponseBodyProducer {
    private static let partSize = 64 * 1024
    /// How many rows' items name the columns: enough for items whose optional fields are absent
    /// here and there, few enough that a long list's CSV (and the start-up check) starts at once.
    static let columnSample = 1_000

    private let request: Request
    private let route: ListRoute
    private let responder: ListResponder
    private var controller: any TableController {
        didSet { itemWriting = controller as? any JSONItemWriting }
    }
    /// The controller when it writes its rows' items itself, cast once per controller.
    private var itemWriting: (any JSONItemWriting)?
    /// The rows of ``controller`` not yet written, flat.
    private var nextRow = 0
    private var rowCount = 0
    private var columns: [String] = []
    private var columnIndex: [String: Int] = [:]
    private var headerWritten = false
    /// The next page of a list that fetches its pages, once this one is written.
    private var nextPage: PageAnchor?
    private var item = JSONWriter()
    private let encoder = JSONItemEncoder(specialValues: FoundationJSONValues.self)
    private var fieldScratch: [JSONItemFields.Value?] = []

    /// The page a CSV starts from: the first, at the list's largest size.
    static func firstPage(of paging: ListPaging) -> PageRequest {
        var page = PageRequest(firstOf: paging)
        page.limit = page.maxLimit ?? page.limit
        return page
    }

    /// Reads the columns (all the rows' fields, or a fetched list's first page's) before any byte
    /// is sent, so that a controller's failure is a status.
    init(controller: any TableController, request: Request, route: ListRoute, responder: ListResponder) throws {
        self.controller = controller
        itemWriting = controller as? any JSONItemWriting
        self.request = request
        self.route = route
        self.responder = responder
        try fetchIfNeeded()
        rowCount = controller.totalNumberOfRows
        for flat in 0..<min(rowCount, Self.columnSample) {
            guard let indexPath = controller.indexPath(atFlatIndex: flat), try writeItem(at: indexPath) else { continue }
            item.withUnsafeBytes { bytes in
                for member in JSONItemFields(bytes).members where columnIndex[member.name] == nil {
                    columnIndex[member.name] = columns.count
                    columns.append(member.name)
                }
            }
        }
    }

    func produce(into buffer: inout [UInt8]) throws -> Bool {
        if !headerWritten {
            headerWritten = true
            CSVFields.appendRecord(columns.isEmpty ? ["id"] : columns, to: &buffer)
        }
        let start = buffer.count
        while buffer.count - start < Self.partSize {
            if nextRow == rowCount {
                guard let next = nextPage else { return false }
                try fetch(next)
                continue
            }
            guard let indexPath = controller.indexPath(atFlatIndex: nextRow) else { return false }
            nextRow += 1
            if columns.isEmpty {
                CSVFields.appendText(Array(controller.identifier(forRowAt: indexPath).utf8), to: &buffer)
                CSVFields.appendRecordEnd(to: &buffer)
            } else if try writeItem(at: indexPath) {
                appendRecord(to: &buffer)
            }
        }
        return nextRow < rowCount || nextPage != nil
    }

    /// Appends the item in ``item`` as a record of ``columns``.
    private func appendRecord(to buffer: inout [UInt8]) {
        item.withUnsafeBytes { bytes in
            fieldScratch = Array(repeating: nil, count: columns.count)
            for member in JSONItemFields(bytes).members {
                if let column = columnIndex[member.name] { fieldScratch[column] = member.value }
            }
            for (column, value) in fieldScratch.enumerated() {
                if column > 0 { CSVFields.appendSeparator(to: &buffer) }
                if let value { JSONItemFields.appendField(value, of: bytes, to: &buffer) }
            }
        }
        CSVFields.appendRecordEnd(to: &buffer)
    }

    /// Writes the row's JSON item into ``item``; false for a row without one.
    private func writeItem(at indexPath: IndexPath) throws -> Bool {
        item.removeAll()
        if let itemWriting { return itemWriting.writeItem(forRowAt: indexPath, into: &item) }
        guard let value = controller.item(forRowAt: indexPath) else { return false }
        try encoder.encode(value, into: &item)
        return true
    }

    /// Fetches a fetched-page controller's page, and notes where the next one is.
    private func fetchIfNeeded() throws {
        guard route.paging.fetchesPages else { return }
        guard let fetching = controller as? any FetchedPageController else {
            throw ListRouteError.notAFetchedPageController(route.path, type: String(reflecting: type(of: controller)))
        }
        try fetching.fetchPage()
        nextPage = fetching.fetchedPage.next
    }

    /// Makes and fetches the controller of the page at `anchor`.
    private func fetch(_ anchor: PageAnchor) throws {
        var query = request.query
        switch anchor {
        case .offset(let offset): query.append(name: "offset", value: String(offset))
        case .cursor(let cursor): query.append(name: "cursor", value: cursor)
        }
        var page = try PageRequest(query: query, paging: route.paging)
        page.limit = page.maxLimit ?? page.limit
        controller = try route.makeController(ListContext(request: request, listPath: route.path, page: page))
        try fetchIfNeeded()
        nextRow = 0
        rowCount = controller.totalNumberOfRows
    }
}
