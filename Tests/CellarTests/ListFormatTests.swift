import ByteWriters
import Cellar
import Foundation
import HTTPTestSupport
import MicroHTTP
import TableKit
import Testing

/// The registry of list formats over sockets: every list answers `.csv` (an app's own lists, held
/// in memory or fetched page by page), `Accept: text/csv` asks for it, and every page links its
/// JSON and CSV with its query.
@Suite struct ListFormatTests {
    /// An app list's CSV is its JSON items' fields: one column per top-level key, every row of the
    /// list whatever `limit` and `offset` say, each field the item's value.
    @Test func anAppListsCSVIsItsJSONItemsFieldsForEveryRow() throws {
        let server = try TestServer.showcase(listbench: 400)
        let json = try JSONValue.parse(try server.get("/listbench.json?limit=400").body)
        let items = try (json.field("sections").array ?? []).flatMap { try ($0.field("rows").array ?? []).map { try $0.field("item") } }
        #expect(items.count == 400)
        for target in ["/listbench.csv", "/listbench.csv?limit=5&offset=10&cursor=x"] {
            let response = try server.get(target)
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "text/csv; charset=utf-8")
            let records = try CSVTable.parse(response.body)
            let header = try #require(records.first)
            guard case .object(let first) = items[0] else {
                Issue.record("a listbench item is an object")
                return
            }
            #expect(Set(header) == Set(first.keys) && header.count == first.count)
            #expect(records.count == 401, "\(target)")
            for (record, item) in zip(records.dropFirst(), items) {
                for (column, name) in header.enumerated() {
                    #expect(try item.field(name).matches(csv: record[column]), "\(name): \(record[column])")
                }
            }
        }
    }

    /// `Accept: text/csv` on the list's own path gets the CSV; a browser's `Accept` the page.
    @Test func acceptTextCSVAsksForTheCSV() throws {
        let server = try TestServer.showcase()
        let csv = try server.get("/listbench", headers: [("Accept", "text/csv")])
        #expect(csv.headers["Content-Type"] == "text/csv; charset=utf-8")
        let page = try server.get("/listbench", headers: [("Accept", "text/html,application/xhtml+xml,text/csv;q=0.8")])
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
    }

    /// Hostile values: quotes, commas, line breaks, markup and spreadsheet formulas come back as
    /// sent (a formula after its `'`), nested values as JSON text, a missing key as an empty field.
    @Test func hostileItemsRoundTripAndFormulasAreDisarmed() throws {
        let server = try TestServer { app in
            try app.register(PlainTextCell.self)
            app.list("/notes") { _ in NotesController() }
        }
        let response = try server.get("/notes.csv")
        #expect(response.status == 200)
        let records = try CSVTable.parse(response.body)
        #expect(records[0] == ["id", "text", "score", "tags", "extra"])
        #expect(records.count == NotesController.notes.count + 1)
        for (record, note) in zip(records.dropFirst(), NotesController.notes) {
            let disarmed = note.text.first.map { "=+-@\t\r".contains($0) } == true && Double(note.text) == nil
            #expect(record[1] == (disarmed ? "'" + note.text : note.text))
            #expect(record[2].isEmpty ? note.score == nil : Double(record[2]) == note.score)
            // A nested value is its JSON text, as the list's JSON writes it.
            #expect(try JSONValue.parse(Array(record[3].utf8)) == .array(note.tags.map { .string($0) }))
            #expect(record[4] == (note.extra ?? ""))
        }
    }

    /// A list whose controller fetches its pages is fetched page after page: every row, in order.
    @Test func aFetchedListsCSVHoldsEveryPage() throws {
        let server = try TestServer { app in
            try app.register(PlainTextCell.self)
            app.list("/counted", paging: .keyset(defaultLimit: 10, maxLimit: 300)) { context in CountedController(context: context, total: 1_000) }
        }
        let records = try CSVTable.parse(try server.get("/counted.csv?limit=3").body)
        #expect(records.first == ["number", "square"])
        #expect(records.dropFirst().map { $0[0] } == (0..<1_000).map(String.init))
        #expect(records.dropFirst().map { $0[1] } == (0..<1_000).map { String($0 * $0) })
    }

    /// Every page links its JSON and CSV, with its query but not its place in the list.
    @Test func everyPageLinksItsJSONAndCSVWithItsQuery() throws {
        let server = try TestServer.showcase()
        let elements = try HTMLInspector.elements(try server.get("/catalog?q=wine&limit=5&offset=10").body)
        let alternates = elements.filter { $0.tag == "a" && $0.attributes["rel"] == "alternate" }
        #expect(alternates.map { $0.attributes["href"] } == ["/catalog.json?q=wine&limit=5", "/catalog.csv?q=wine&limit=5"])
        #expect(alternates.map { $0.attributes["type"] } == ["application/json", "text/csv"])
        #expect(alternates.map(\.text) == ["JSON", "CSV"])
        // The search form keeps the query's other items.
        let hidden = elements.filter { $0.tag == "input" && $0.attributes["type"] == "hidden" }
        #expect(hidden.map { $0.attributes["name"] } == ["limit"])
        #expect(hidden.map { $0.attributes["value"] } == ["5"])
        let index = try HTMLInspector.elements(try server.get("/").body)
        #expect(index.filter { $0.attributes["rel"] == "alternate" }.map { $0.attributes["href"] } == ["/index.json", "/index.csv"])
    }

    /// The field writer: RFC 4180 quoting, and formulas disarmed unless the text is a number.
    @Test func csvFieldsQuoteAndDisarm() {
        func field(_ text: String) -> String {
            var buffer: [UInt8] = []
            CSVFields.appendText(Array(text.utf8), to: &buffer)
            return String(decoding: buffer, as: UTF8.self)
        }
        #expect(field("plain") == "plain")
        #expect(field("a,b") == "\"a,b\"")
        #expect(field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(field("two\r\nlines") == "\"two\r\nlines\"")
        #expect(field(" padded") == "\" padded\"")
        #expect(field("=1+2") == "'=1+2")
        #expect(field("=HYPERLINK(\"x\",\"y\")") == "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"")
        #expect(field("@SUM(A1)") == "'@SUM(A1)")
        #expect(field("+1 555") == "'+1 555")
        #expect(field("-2+3") == "'-2+3")
        #expect(field("\tx") == "'\tx")
        #expect(field("\rx") == "\"'\rx\"")
        for number in ["-12.5", "+33", "-1e9", "-.5", "7"] { #expect(field(number) == number) }
        for notNumber in ["-", "-e5", "-1e", "--1"] { #expect(field(notNumber) == "'" + notNumber) }
    }
}

/// Notes whose values a spreadsheet or a CSV reader could misread.
struct NotesController: TableController {
    struct Note: Encodable {
        let id: Int
        let text: String
        let score: Double?
        let tags: [String]
        var extra: String? = nil
    }

    static let notes: [Note] = [
        Note(id: 1, text: "plain", score: 1.5, tags: []),
        Note(id: 2, text: "=cmd|' /C calc'!A0", score: nil, tags: ["a", "b"]),
        Note(id: 3, text: "-5", score: -5, tags: ["x"]),
        Note(id: 4, text: "+1 555 0100", score: 0, tags: []),
        Note(id: 5, text: "@SUM(1,2)", score: nil, tags: [], extra: "later key"),
        Note(id: 6, text: "quote \" comma , line\nbreak </script><b>", score: 2, tags: ["<i>"]),
        Note(id: 7, text: "\t-tab", score: nil, tags: [], extra: "é ☃ \u{1F600}"),
    ]

    var title: String { "Notes" }
    func numberOfRows(inSection section: Int) -> Int { Self.notes.count }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(for: indexPath, cell: PlainTextCell.self, data: Self.notes[indexPath.row].text)
    }
    func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { Self.notes[indexPath.row] }
}

/// The numbers 0..<total, fetched a page at a time by offset, each item `{"number", "square"}`.
final class CountedController: FetchedPageController, JSONItemWriting {
    let context: ListContext
    let total: Int
    private var rows: Range<Int> = 0..<0

    init(context: ListContext, total: Int) {
        self.context = context
        self.total = total
    }

    func fetchPage() throws {
        let start = min(context.page.offset, total)
        rows = start..<min(start + (context.page.limit ?? total), total)
    }

    var fetchedPage: FetchedPage {
        FetchedPage(firstRow: rows.lowerBound, total: total, next: rows.upperBound < total ? .offset(rows.upperBound) : nil)
    }

    var title: String { "Counted" }
    func numberOfRows(inSection section: Int) -> Int { rows.count }
    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(for: indexPath, cell: PlainTextCell.self, data: String(rows.lowerBound + indexPath.row))
    }
    func writeItem(forRowAt indexPath: IndexPath, into json: inout JSONWriter) -> Bool {
        let number = rows.lowerBound + indexPath.row
        json.raw("{")
        json.key("number")
        json.number(number)
        json.member("square", number * number)
        json.raw("}")
        return true
    }
}

/// RFC 4180 read back, for the tests: records of fields, quotes undone.
enum CSVTable {
    struct Malformed: Error {}

    static func parse(_ bytes: [UInt8]) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var index = 0
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") {
                guard field.isEmpty else { throw Malformed() }
                quoted = true
            } else if byte == UInt8(ascii: ",") {
                record.append(String(decoding: field, as: UTF8.self))
                field = []
            } else if byte == 13, index + 1 < bytes.count, bytes[index + 1] == 10 {
                record.append(String(decoding: field, as: UTF8.self))
                records.append(record)
                record = []
                field = []
                index += 1
            } else {
                guard byte != 10, byte != 13 else { throw Malformed() }
                field.append(byte)
            }
            index += 1
        }
        guard !quoted, field.isEmpty, record.isEmpty else { throw Malformed() }
        return records
    }
}

extension JSONValue {
    /// Whether a CSV field holds the value: a string's text, a number's value, `null` as nothing.
    func matches(csv field: String) -> Bool {
        switch self {
        case .string(let text): text == field || (field.hasPrefix("'") && String(field.dropFirst()) == text)
        case .null: field.isEmpty
        case .integer(let value): Int(field) == value
        case .double(let value): Double(field) == value
        case .bool(let value): field == String(value)
        default: field == description
        }
    }
}
