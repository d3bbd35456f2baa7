import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// A table's schema (its page's disclosure, `/{table}/-/schema` and its JSON) against SQLite's own
/// pragmas; the rows that reference a row, on its page, against `pragma_foreign_key_list` and
/// counts; which column labels a row; NULL and long text on a row's page.
extension DatabaseListHTTPTests {
    static func schemaServer(configuration: DatabaseConfiguration? = nil) throws -> DatabaseTestServer {
        try DatabaseTestServer(TemporaryDatabase(SchemaFixture.sql), configuration: configuration)
    }

    static let schemaTables = ["symbols", "stocks", "ticks", "people", "teams", "events", "members"]

    // MARK: Schema

    @Test func theSchemaEqualsThePragmas() throws {
        let server = try Self.schemaServer()
        for table in Self.schemaTables {
            let json = try server.json("/\(table)/-/schema.json")
            #expect(json["table"]?.string == table)
            #expect(json["kind"]?.string == "table")
            let columns = try server.reference(
                #"SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid"#, [.text(table)])
            let found = json["columns"]?.array ?? []
            #expect(found.count == columns.count, "\(table)")
            for (column, expected) in zip(found, columns) {
                #expect(column["name"] == expected[0].json, "\(table)")
                #expect(column["type"] == expected[1].json, "\(table)")
                #expect(column["notNull"] == .bool(expected[2] == .integer(1)), "\(table).\(expected[0].identifier)")
                #expect(column["default"] == expected[3].json, "\(table).\(expected[0].identifier)")
                #expect(column["primaryKey"] == (expected[4] == .integer(0) ? .null : expected[4].json), "\(table).\(expected[0].identifier)")
            }
            // A key that names no column refers to the referenced table's primary key.
            let keys = try server.reference(
                """
                SELECT "from", "table", coalesce("to", (SELECT name FROM pragma_table_info(f."table") WHERE pk = 1))
                FROM pragma_foreign_key_list(?) AS f ORDER BY id DESC, seq
                """, [.text(table)])
            let foundKeys = (json["foreignKeys"]?.array ?? []).map { key in
                [key["columns"]?.array.first ?? .null, key["table"] ?? .null, key["referencedColumns"]?.array.first ?? .null]
            }
            #expect(foundKeys == keys.map { $0.map(\.json) }, "\(table)")
            let indexes = try server.reference(#"SELECT name, "unique", origin, partial FROM pragma_index_list(?) ORDER BY name"#, [.text(table)])
            let foundIndexes = json["indexes"]?.array ?? []
            #expect(foundIndexes.map { $0["name"] } == indexes.map { $0[0].json }, "\(table)")
            for (index, expected) in zip(foundIndexes, indexes) {
                let name = expected[0].identifier
                #expect(index["unique"] == .bool(expected[1] == .integer(1)), "\(name)")
                let origin = ["c": "created", "u": "unique", "pk": "primaryKey"][expected[2].identifier]
                #expect(index["origin"]?.string == origin, "\(name)")
                #expect(index["partial"] == .bool(expected[3] == .integer(1)), "\(name)")
                let keyColumns = try server.reference(
                    "SELECT coalesce(name, '<expression>') FROM pragma_index_xinfo(?) WHERE key ORDER BY seqno", [.text(name)])
                #expect(index["columns"]?.array == keyColumns.map { $0[0].json }, "\(name)")
            }
            // The page and the disclosure say the same.
            let page = try server.get("/\(table)/-/schema")
            #expect(page.status == 200)
            let list = try server.get("/\(table)?limit=1")
            #expect(list.text.contains("<details class=\"schema\"><summary>"), "\(table): closed by default")
            for column in columns {
                #expect(page.text.contains("<th scope=\"row\"><code>\(column[0].identifier)</code></th>"), "\(table)")
                #expect(list.text.contains("<th scope=\"row\"><code>\(column[0].identifier)</code></th>"), "\(table)")
            }
            for index in indexes { #expect(page.text.contains("<li><code>\(index[0].identifier)</code>"), "\(table)") }
        }
        // The stocks' indexes of every origin, and a default that is an expression.
        let stocks = try server.get("/stocks/-/schema").text
        #expect(stocks.contains("<li><code>stocks_lower</code> (&lt;expression&gt;)</li>"))
        #expect(stocks.contains("<li><code>stocks_dear</code> (close) partial</li>"))
        #expect(stocks.contains("<li><code>stocks_symbol_day</code> (symbol, day) unique</li>"))
        #expect(stocks.contains("<code>date(&#39;now&#39;)</code>") || stocks.contains("<code>date('now')</code>"))
    }

    @Test func aRowKeyedDashIsNotShadowedByTheSchemasPath() throws {
        let server = try Self.schemaServer()
        let row = try server.json("/symbols/-.json")
        #expect(row["id"]?.string == "-")
        #expect(row["item"]?["listed"]?.string == "2000-01-02")
        #expect(try server.get("/symbols/-").status == 200)
        #expect(try server.json("/symbols/-/schema.json")["table"]?.string == "symbols")
        #expect(try server.get("/symbols/-/nothing").status == 404)
    }

    /// Every table's schema is below the path it is mounted at: `/-/{name}` and `/-/x/{hex}` too.
    @Test func everyTablesSchemaIsBelowItsOwnPath() throws {
        let server = try DatabaseTestServer(TemporaryDatabase(CellarFixture.names))
        for (table, path) in server.mounted {
            let encoded = path.split(separator: "/", omittingEmptySubsequences: false).map { percentEncoded(String($0)) }.joined(separator: "/")
            let schema = try server.json(encoded + "/-/schema.json")
            #expect(schema["table"]?.string == table, "\(path)")
            #expect(try server.get(encoded + "/-/schema").status == 200, "\(path)")
        }
    }

    @Test func theIndexNamesEachTablesColumns() throws {
        let server = try Self.schemaServer()
        let index = try server.json("/index.json")
        for table in Self.schemaTables {
            let names = try server.reference("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).map { $0[0].identifier }
            let entry = index.rows.compactMap { $0["item"] }.first { $0["title"]?.string == table }
            #expect(entry?["summary"]?.string?.hasSuffix(" · " + names.joined(separator: ", ")) == true, "\(table): \(String(describing: entry))")
        }
    }

    // MARK: Incoming references

    @Test(arguments: ["S1", "S2", "S40", "-"])
    func aRowListsTheRowsThatReferenceItAsThePragmasSay(symbol: String) throws {
        let server = try Self.schemaServer()
        let keys = try server.reference(
            """
            SELECT m.name, f."from" FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS f
            WHERE m.type = 'table' AND f."table" = 'symbols' ORDER BY m.name, f.id DESC
            """)
        let json = try server.json("/symbols/\(percentEncoded(symbol)).json")
        let references = json["references"]?.array ?? []
        #expect(
            Set(references.map { "\($0["list"]?.string ?? "").\($0["column"]?.string ?? "")" })
                == Set(keys.map { "\($0[0].identifier).\($0[1].identifier)" }))
        #expect(references.count == keys.count)
        let page = try server.get("/symbols/\(percentEncoded(symbol))")
        #expect(page.text.contains("<section class=\"references\""))
        for reference in references {
            let table = try #require(reference["list"]?.string)
            let column = try #require(reference["column"]?.string)
            let counted = try server.reference("SELECT count(*) FROM \(table) WHERE \(column) = ?", [.text(symbol)])[0][0]
            guard case .integer(let count) = counted else { throw UnexpectedValue(value: "\(counted)") }
            #expect(reference["count"] == .integer(min(count, 10_000)), "\(table).\(column)")
            #expect(reference["countIsExact"] == .bool(count <= 10_000), "\(table).\(column)")
            let text = try #require(reference["text"]?.string)
            let rows = count > 10_000 ? "More than 10,000 rows" : count == 1 ? "1 row" : "\(count) rows"
            #expect(text.hasPrefix("\(rows) in \(table) reference"), "\(text)")
            #expect(text.hasSuffix(table == "stocks" ? " this symbol through \(column)" : " this symbol"), "\(text)")
            #expect(page.text.contains(Self.escaped(text)))
            // The link is the list filtered to exactly those rows.
            let href = try #require(reference["href"]?.string)
            #expect(href == "/\(table)?\(column)=\(percentEncoded(symbol))")
            let filtered = try server.json(href.replacing("/\(table)?", with: "/\(table).json?"))
            #expect(filtered["meta"]?["total"] == .integer(min(count, 10_000)), "\(href)")
        }
    }

    @Test func aReferenceCountFollowsAWrite() throws {
        let server = try Self.schemaServer()
        let before = try server.json("/symbols/S40.json")["references"]?.array.first { $0["list"]?.string == "ticks" }
        #expect(before?["count"] == .integer(0))
        try server.database.writer().execute("INSERT INTO ticks(symbol, size) VALUES ('S40', 1)")
        let after = try server.json("/symbols/S40.json")["references"]?.array.first { $0["list"]?.string == "ticks" }
        #expect(after?["count"] == .integer(1))
        #expect(after?["text"]?.string == "1 row in ticks references this symbol")
    }

    // MARK: Labels

    @Test func aForeignKeyIsLabelledByAColumnThatNamesItsRowElseByItsKey() throws {
        let server = try Self.schemaServer()
        // Member 1: person 2 (full_name is unique: its label), team 2 (its name repeats: the key),
        // event 2 (its title is a date: the key).
        let fields = try server.json("/members/1.json")["fields"]?.array ?? []
        let values = Dictionary(uniqueKeysWithValues: fields.map { ($0["label"]?.string ?? "", $0["value"]?.string ?? "") })
        #expect(values["person_id"] == "Person 2")
        #expect(values["team_id"] == "2")
        #expect(values["event_id"] == "2")
        // The stocks' symbols: the first text column is a date, so the symbol is its own label.
        let stocks = try server.get("/stocks?limit=3").text
        #expect(stocks.contains("<a href=\"/symbols/S2\">S2</a>"), "\(stocks)")
        #expect(!stocks.contains(">2000-01-01</a>"))
        // The configuration's label wins.
        let configured = try Self.schemaServer(
            configuration: DatabaseConfiguration(yaml: "tables:\n  teams:\n    label: name\n", file: "schema.yaml"))
        let configuredFields = try configured.json("/members/1.json")["fields"]?.array ?? []
        #expect(configuredFields.first { $0["label"]?.string == "team_id" }?["value"]?.string == "Team 0")
    }

    // MARK: A row's page

    @Test func aRowsPageShowsNullApartFromTheTextNullAndLongTextWhole() throws {
        let server = try Self.schemaServer()
        let stock = try server.get("/stocks/7")
        #expect(stock.text.contains("<dt>close</dt><dd><span class=\"null\">NULL</span></dd>"), "\(stock.text)")
        let fields = try server.json("/stocks/7.json")["fields"]?.array ?? []
        #expect(fields.first { $0["label"]?.string == "close" }?["value"] == .null)
        let text = try server.get("/symbols/S3")
        #expect(text.text.contains("<dt>note</dt><dd>NULL</dd>"), "\(text.text)")
        #expect(try server.json("/symbols/S3.json")["fields"]?.array.first { $0["label"]?.string == "note" }?["value"]?.string == "NULL")
        let long = try server.reference("SELECT note FROM symbols WHERE symbol = 'S4'")[0][0].identifier
        #expect(long.count > 5_000)
        #expect(try server.get("/symbols/S4").text.contains("<dd>\(long)</dd>"))
    }
}

struct UnexpectedValue: Error {
    let value: String
}
